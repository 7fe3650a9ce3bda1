import { lazyModule } from '@pinfold/core'
import { describe, expect, it } from 'vitest'
import { lazyExtractionPool } from '../src/lazy-extraction-pool.js'

async function* text(value: string): AsyncGenerator<Uint8Array> {
  yield new TextEncoder().encode(value)
}

describe('lazyExtractionPool', () => {
  it('imports the pool on the first extraction and extracts through it', async () => {
    let imports = 0
    const pool = lazyExtractionPool(
      lazyModule('text extraction for vectors', async () => {
        imports++
        const real = await import('@pinfold/text-extract')
        // the real pool, with room for its worker thread to start (under the source condition) on a loaded machine
        return { createExtractionPool: () => real.createExtractionPool({ threads: 1, timeoutMs: 60_000 }) }
      }),
    )
    try {
      expect(pool.stats()).toEqual({ running: 0, waiting: 0, refused: 0 })
      expect(imports).toBe(0)
      const options = { mimeType: 'text/markdown', passageChars: 500 }
      expect(await pool.extract(text('# Pinfold\n\nStores *files*.'), options)).toEqual(['Pinfold Stores files.'])
      await pool.extract(text('again'), options)
      expect(imports).toBe(1)
    } finally {
      await pool.close()
    }
  }, 90_000)

  it('answers UNAVAILABLE when the pool cannot be imported, and tries again on the next file', async () => {
    let attempts = 0
    const pool = lazyExtractionPool(
      lazyModule('text extraction for vectors', async () => {
        attempts++
        throw new Error("Cannot find package 'piscina'")
      }),
    )
    for (let attempt = 1; attempt <= 2; attempt++) {
      await expect(pool.extract(text('hello'), { mimeType: 'text/plain' })).rejects.toMatchObject({
        code: 'UNAVAILABLE',
        message: 'text extraction for vectors: unavailable on this server, a module it needs could not be loaded',
      })
      expect(attempts).toBe(attempt)
    }
    await pool.close()
  })
})
