import { describe, expect, it } from 'vitest'
import { coalesce } from '../../src/streams/coalesce.js'
import { chacha, pieces, stream } from '../support/pseudo-random-bytes.js'

async function collect(source: AsyncIterable<Uint8Array>): Promise<Uint8Array[]> {
  const chunks: Uint8Array[] = []
  for await (const chunk of source) chunks.push(chunk)
  return chunks
}

describe('coalesce', () => {
  it('keeps every byte in order, and every chunk but the last is at least minBytes', async () => {
    for (const maxPiece of [1, 7, 100, 5000]) {
      const bytes = chacha(`coalesce/${maxPiece}`, 50_000)
      const out = await collect(coalesce(stream(pieces(bytes, `coalesce/${maxPiece}`, maxPiece)), 1024))
      expect(Buffer.concat(out).equals(bytes), `pieces up to ${maxPiece}`).toBe(true)
      for (const chunk of out.slice(0, -1)) expect(chunk.length).toBeGreaterThanOrEqual(1024)
    }
  })

  it('a body of 1-byte chunks becomes one chunk per minBytes', async () => {
    const bytes = chacha('coalesce/bytes', 100_000)
    const out = await collect(coalesce(stream(pieces(bytes, 'coalesce/bytes', 1)), 16_384))
    expect(out.length).toBe(Math.ceil(100_000 / 16_384))
  })

  it('passes a chunk of minBytes or more through uncopied, or its rest after completing what was gathered', async () => {
    const big = new Uint8Array(8192).fill(1)
    const alone = await collect(coalesce(stream([big]), 4096))
    expect(alone).toEqual([big])
    expect(alone[0]).toBe(big)
    const after = await collect(coalesce(stream([new Uint8Array([7]), big]), 4096))
    expect(after.map((c) => c.length)).toEqual([4096, 4097])
    expect(after[1]!.buffer).toBe(big.buffer) // a view of the big chunk, not a copy
  })

  it('an empty source yields nothing', async () => {
    expect(await collect(coalesce(stream([]), 10))).toEqual([])
  })
})
