import { join } from 'node:path'
import type { Embedder, TextExtractor } from '@pinfold/core'
import { createLocalEmbedder, type EmbedderLogger, embedderFromEnv } from '@pinfold/embedders'
import type { ExtractionPool } from '@pinfold/text-extract'

export interface EmbedderConfigInput {
  env: Readonly<Record<string, string | undefined>>
  /** The server's data directory; the local embedder caches its word vectors under `<dataDir>/embeddings`. */
  dataDir: string
  logger?: EmbedderLogger | undefined
}

/**
 * The server's embedder: an OpenAI-compatible endpoint when `PINFOLD_EMBEDDINGS_URL` is set (see
 * `embedderFromEnv`), else the in-process local embedder. Building it loads nothing; the local
 * embedder reads its word vectors on the first vectorize or query.
 */
export function embedderFromConfig({ env, dataDir, logger }: EmbedderConfigInput): Embedder {
  return embedderFromEnv(env) ?? createLocalEmbedder({ cacheDir: join(dataDir, 'embeddings'), logger })
}

/**
 * Everything `createFileService` needs for semantic vectors, to spread into its options:
 * `createFileService({ records, blobs, ...vectorServiceOptions({ env, dataDir }, extraction) })`.
 * Text is extracted on the worker threads of `extraction` (tenant files are never parsed on the
 * main thread); the caller closes it when the server stops.
 */
export function vectorServiceOptions(
  input: EmbedderConfigInput,
  extraction: ExtractionPool,
): { embedder: Embedder; textExtractor: TextExtractor } {
  return { embedder: embedderFromConfig(input), textExtractor: extraction.extract }
}
