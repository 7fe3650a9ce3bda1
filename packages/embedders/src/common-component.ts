/**
 * The first principal component (uncentered, as in SIF) of a set of vectors, by power iteration on
 * XᵀX. Averaged word vectors of any English text share a large common direction (syntax, frequent
 * words); removing it lowers the similarity floor between unrelated texts.
 */
export function firstPrincipalComponent(rows: readonly Float32Array[], dimensions: number): Float32Array {
  let u: Float32Array = new Float32Array(dimensions).fill(1 / Math.sqrt(dimensions))
  for (let iteration = 0; iteration < 100; iteration++) {
    const next = new Float32Array(dimensions)
    for (const row of rows) {
      const projection = dot(row, u)
      for (let d = 0; d < dimensions; d++) next[d]! += projection * row[d]!
    }
    const norm = Math.sqrt(dot(next, next))
    if (norm === 0) return next
    for (let d = 0; d < dimensions; d++) next[d]! /= norm
    const converged = Math.abs(dot(next, u)) > 1 - 1e-9
    u = next
    if (converged) break
  }
  return u
}

/** v ← v − (v·u)u, in place, for a unit vector u. */
export function removeComponent(v: Float32Array, u: Float32Array): Float32Array {
  const projection = dot(v, u)
  for (let d = 0; d < u.length; d++) v[d]! -= projection * u[d]!
  return v
}

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!
  return sum
}
