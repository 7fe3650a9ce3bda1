import { firstPrincipalComponent, removeComponent } from './common-component.js'
import { REFERENCE_SENTENCES } from './reference-sentences.js'
import { sifWeightOfRank } from './sif-weights.js'
import { type AnalyzedToken, analyzeText } from './text-analysis.js'
import type { WordVectors } from './word-vectors.js'

/** SIF sentence vectors over a word-vector vocabulary: weighted average, minus the common component. */
export interface SifModel {
  /** The document's semantic vector (not normalised); all zeros when no token is in the vocabulary. */
  embedTokens(tokens: readonly AnalyzedToken[]): Float32Array
  /** SIF weight of a token, 1 for words outside the vocabulary (rare by definition). */
  weightOf(token: AnalyzedToken): number
}

export function createSifModel(vectors: WordVectors, a: number): SifModel {
  const { dimensions, matrix, rows } = vectors
  const size = vectors.words.length

  // Inflected forms missing from the vocabulary often have their stem in it ("vectorizing" → "vector").
  const rowOf = (token: AnalyzedToken) => rows.get(token.normal) ?? rows.get(token.stem)
  const weightOf = (token: AnalyzedToken) => {
    const row = rowOf(token)
    return row === undefined ? 1 : sifWeightOfRank(row, size, a)
  }

  const weightedAverage = (tokens: readonly AnalyzedToken[]) => {
    const sum = new Float32Array(dimensions)
    let count = 0
    for (const token of tokens) {
      const row = rowOf(token)
      if (row === undefined) continue
      const weight = sifWeightOfRank(row, size, a)
      const offset = row * dimensions
      for (let d = 0; d < dimensions; d++) sum[d]! += weight * matrix[offset + d]!
      count++
    }
    if (count > 1) for (let d = 0; d < dimensions; d++) sum[d]! /= count
    return sum
  }

  const common = firstPrincipalComponent(
    REFERENCE_SENTENCES.map((sentence) => weightedAverage(analyzeText(sentence))),
    dimensions,
  )
  return { embedTokens: (tokens) => removeComponent(weightedAverage(tokens), common), weightOf }
}
