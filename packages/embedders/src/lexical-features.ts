import { addHashedFeature } from './feature-hashing.js'
import type { AnalyzedToken } from './text-analysis.js'

/**
 * A bag of stemmed content tokens, hashed into `dimensions` slots. It catches exact matches the word
 * vectors cannot: identifiers, numbers, names and words outside the vocabulary.
 *
 * `weightOf` says how much a token matters (rare tokens more); repeats count sublinearly
 * (1 + ln tf) so one word said ten times does not drown the rest.
 */
export function lexicalVector(
  tokens: readonly AnalyzedToken[],
  dimensions: number,
  weightOf: (token: AnalyzedToken) => number,
): Float32Array {
  const counts = new Map<string, { count: number; weight: number }>()
  for (const token of tokens) {
    if (token.isStopWord) continue
    const entry = counts.get(token.stem)
    if (entry) entry.count++
    else counts.set(token.stem, { count: 1, weight: weightOf(token) })
  }
  const vector = new Float32Array(dimensions)
  for (const [stem, { count, weight }] of counts) addHashedFeature(vector, stem, weight * (1 + Math.log(count)))
  return vector
}
