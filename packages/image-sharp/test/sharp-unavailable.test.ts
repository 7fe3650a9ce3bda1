import { lazyModule } from '@pinfold/interface'
import { describe, expect, it } from 'vitest'
import { type SharpLibrary, transformerOn } from '../src/sharp-transformer.js'

async function* bytes(): AsyncGenerator<Uint8Array> {
  yield new Uint8Array([0x89, 0x50, 0x4e, 0x47])
}

describe('the image transformer when sharp cannot be loaded', () => {
  it('is created without loading sharp, and each transform answers UNAVAILABLE saying what is missing', async () => {
    let attempts = 0
    // what a server without a usable libvips gets from `import('sharp')`
    const failing = lazyModule('image transforms', async (): Promise<SharpLibrary> => {
      attempts++
      throw new Error('libvips-cpp.so.8.17.3: cannot open shared object file: No such file or directory')
    })
    const transformer = transformerOn(failing)
    expect(attempts).toBe(0)
    const transform = { fit: 'scaleDown', gravity: 'center', animated: false, keepMetadata: false, width: 10 } as const
    for (let attempt = 1; attempt <= 2; attempt++) {
      const error = await transformer.transform(bytes(), transform).catch((e: unknown) => e)
      expect(error).toMatchObject({
        code: 'UNAVAILABLE',
        message: 'image transforms: unavailable on this server, a module it needs could not be loaded',
      })
      // the import's own failure stays as the cause, for the server's log
      expect(String((error as Error).cause)).toContain('libvips-cpp.so')
      expect(attempts).toBe(attempt)
    }
    // the slot the failed transforms held is free again
    expect(transformer.stats?.()).toMatchObject({ running: 0, waiting: 0 })
  })
})
