import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { appendStagedPatch, STAGED_LEAF_BYTES } from '../../src/content/staging/staged-parts.js'
import type { StagedBlobWrites } from '../../src/index.js'
import { blobStore } from '../support/blob-store.js'
import { chacha, pieces, stream } from '../support/pseudo-random-bytes.js'

/** Staged writes that keep each part's pieces as handed over, with S3's 5 MiB minimum part. */
function recordingWrites() {
  const parts: Uint8Array[][] = []
  const writes: StagedBlobWrites = {
    minPartBytes: 5 * 1024 * 1024,
    begin: async () => 'handle',
    async appendPart(_key, _handle, _offset, source) {
      const pieces: Uint8Array[] = []
      for await (const piece of source) pieces.push(piece)
      parts.push(pieces)
      const size = pieces.reduce((sum, p) => sum + p.length, 0)
      return { size, part: String(size) }
    },
    complete: async () => ({ size: 0 }),
    abort: async () => {},
  }
  return { writes, parts }
}

describe('appendStagedPatch', () => {
  it('a PATCH sent one byte per chunk is held in pieces of at least 16 KiB, and stores and hashes every byte', async () => {
    const size = 2 * STAGED_LEAF_BYTES + 1000
    const bytes = chacha('staged/one-byte', size)
    const { writes, parts } = recordingWrites()
    const { entry, digests } = await appendStagedPatch(
      blobStore().store,
      writes,
      { key: 'blob', handle: 'handle' },
      undefined,
      0,
      0,
      stream(pieces(bytes, 'staged/one-byte', 1)),
      (received) => received === size,
      'carry',
      {},
    )
    const held = parts[0]!
    expect(Buffer.concat(held).equals(bytes)).toBe(true)
    expect(entry).toMatchObject({ at: 0, stored: size, carry: null })
    // whole 16 KiB chunks, or parts of one a leaf boundary cut (uncoalesced: 525,288 pieces of one byte)
    expect(held.length).toBeLessThanOrEqual(Math.ceil(size / 16_384) + 3)
    const leaf = (i: number) => bytes.subarray(i * STAGED_LEAF_BYTES, (i + 1) * STAGED_LEAF_BYTES)
    expect(digests.map((d) => Buffer.from(d).toString('hex'))).toEqual(
      [0, 1, 2].map((i) => createHash('sha256').update(leaf(i)).digest('hex')),
    )
  })
})
