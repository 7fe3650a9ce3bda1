import { lazyModule, PinfoldError } from '@pinfold/core'
import type { ExtractionPool } from '@pinfold/text-extract'

/**
 * The text extraction pool (piscina, with the PDF, HTML, Markdown and CSV parsers of
 * `@pinfold/text-extract`) is imported and made by the first file vectorized, not at start: most
 * servers never vectorize a file, and the pool's workers start on demand anyway.
 */
const loadTextExtract = lazyModule('text extraction for vectors', () => import('@pinfold/text-extract'))

/** An `ExtractionPool` whose real one is made on the first `extract`. */
export function lazyExtractionPool(
  /** Where `createExtractionPool` comes from (tests: a loader that fails). */
  load: () => Promise<Pick<typeof import('@pinfold/text-extract'), 'createExtractionPool'>> = loadTextExtract,
): ExtractionPool {
  let pool: ExtractionPool | undefined
  let closed = false
  return {
    async extract(source, options) {
      if (!pool) {
        const { createExtractionPool } = await load()
        // closed while it loaded: the pool `close` would have stopped is never made
        if (closed) throw new PinfoldError('UNAVAILABLE', 'the server is stopping')
        pool ??= createExtractionPool()
      }
      return pool.extract(source, options)
    },
    async close() {
      closed = true
      await pool?.close()
    },
    stats: () => pool?.stats() ?? { running: 0, waiting: 0, refused: 0 },
  }
}
