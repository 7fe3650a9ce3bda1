import { describe, expect, it } from 'vitest'
import { assertDimensions, cosine, l2Normalize } from '../src/vector-math.js'

describe('vector math', () => {
  it('l2Normalize - scales to unit length and leaves zero vectors alone', () => {
    expect([...l2Normalize(Float32Array.of(3, 4))]).toEqual([expect.closeTo(0.6), expect.closeTo(0.8)])
    expect([...l2Normalize(new Float32Array(3))]).toEqual([0, 0, 0])
  })

  it('cosine - is 1 for parallel, 0 for orthogonal and for zero vectors', () => {
    expect(cosine([1, 2], [2, 4])).toBeCloseTo(1)
    expect(cosine([1, 0], [0, 5])).toBe(0)
    expect(cosine([0, 0], [1, 1])).toBe(0)
  })

  it('assertDimensions - rejects a vector of the wrong size with INVALID_INPUT', () => {
    expect(() => assertDimensions([1, 2, 3], 3, 'x')).not.toThrow()
    expect(() => assertDimensions([1, 2], 3, 'x')).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }))
  })
})
