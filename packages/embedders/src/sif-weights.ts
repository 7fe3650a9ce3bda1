/**
 * Smooth inverse frequency (Arora, Liang & Ma, 2017): a word's weight is a / (a + p(w)), so frequent
 * words ("the", "said") count little and rare, topical words count fully.
 *
 * The vocabulary is sorted by corpus frequency, so p(w) is estimated from the word's rank with
 * Zipf's law: p(rank r) ≈ 1 / ((r + 1) · H), H ≈ ln(N) + γ being the normaliser over N words.
 */
export function sifWeightOfRank(rank: number, vocabularySize: number, a: number): number {
  const harmonic = Math.log(vocabularySize) + 0.5772156649
  const probability = 1 / ((rank + 1) * harmonic)
  return a / (a + probability)
}
