import { join } from 'node:path'
import type { EmbedderLogger } from './logger.js'
import { parseWinkEmbeddings, type WinkEmbeddingsLocation } from './wink-word-vectors.js'
import { readWordVectorCache, writeWordVectorCache } from './word-vector-cache.js'
import type { WordVectors } from './word-vectors.js'

export interface LoadedWordVectors {
  vectors: WordVectors
  /** `cache` when the binary cache was read, `source` when the package's JSON had to be parsed. */
  from: 'cache' | 'source'
  milliseconds: number
}

/**
 * Reads the binary cache in `cacheDir`, or parses the package's JSON and writes the cache for next
 * time. A cache that cannot be written (read-only disk) only costs speed, so it is a warning.
 */
export async function loadWordVectors(
  location: WinkEmbeddingsLocation,
  cacheDir: string,
  logger: EmbedderLogger,
): Promise<LoadedWordVectors> {
  const started = performance.now()
  const cachePath = join(cacheDir, `${location.source}.f32.bin`)
  const cached = await readWordVectorCache(cachePath, location.source)
  if (cached) return { vectors: cached, from: 'cache', milliseconds: performance.now() - started }

  const vectors = await parseWinkEmbeddings(location)
  try {
    await writeWordVectorCache(cachePath, vectors)
    logger.info?.(`@pinfold/embedders: cached ${location.source} word vectors in ${cachePath}`)
  } catch (err) {
    logger.warn(`@pinfold/embedders: could not write the word-vector cache ${cachePath}: ${String(err)}`)
  }
  return { vectors, from: 'source', milliseconds: performance.now() - started }
}
