/**
 * Text extraction for Pinfold's semantic vectors: a file's bytes in, passages ready to embed out.
 * Reads at most `maxBytes` of the stream; supports text, Markdown, JSON, CSV/TSV, HTML, XML and PDF.
 * Servers use `createExtractionPool`, which parses on worker threads with time and memory limits.
 *
 * @example
 * ```ts
 * import { extractPassages } from '@pinfold/text-extract'
 *
 * async function* file() {
 *   yield new TextEncoder().encode('<h1>Pinfold</h1><p>Stores files on IPFS. <script>track()</script>Finds them by meaning.</p>')
 * }
 * const passages = await extractPassages(file(), { mimeType: 'text/html', passageChars: 500 })
 * console.log(passages) // [ 'Pinfold Stores files on IPFS. Finds them by meaning.' ]
 * ```
 */
export { type ContentKind, contentKind } from './content-kind.js'
export { extractPassages } from './extract-passages.js'
export { createExtractionPool, type ExtractionPool, type ExtractionPoolOptions } from './extraction-pool.js'
export { DEFAULT_MAX_BYTES, type ExtractOptions } from './extraction-task.js'
export { splitPassages } from './split-passages.js'
