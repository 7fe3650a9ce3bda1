import type { CidVersion } from '@pinfold/interface'
import { importer } from 'ipfs-unixfs-importer'
import type { CID } from 'multiformats/cid'
import { describe, expect, it } from 'vitest'
import { BalancedDagFrontier } from '../../src/content/unixfs/balanced-dag.js'
import { computeFileCid } from '../../src/content/unixfs/compute-cid.js'
import { LeafCutter } from '../../src/content/unixfs/leaf-cutter.js'
import { kuboImporterOptions, LEAF_BYTES } from '../../src/content/unixfs/profiles.js'
import { chacha, pieces, stream } from '../support/pseudo-random-bytes.js'

const LEAF = LEAF_BYTES.v1

/** The stock importer with Kubo's settings: its fixed-size chunker assembles every leaf. */
async function stockCid(bytes: Uint8Array, version: CidVersion): Promise<CID> {
  let root: CID | undefined
  for await (const entry of importer(
    [{ content: [bytes] }],
    { put: async (cid: CID) => cid },
    kuboImporterOptions(version),
  ))
    root = entry.cid
  return root!
}

describe('computeFileCid', () => {
  // 0 and 1 byte; either side of one leaf; two leaves; 175 leaves, which needs a second level of
  // the balanced layout (174 links per node)
  const sizes = [0, 1, LEAF - 1, LEAF, LEAF + 1, 2 * LEAF, 174 * LEAF, 175 * LEAF + 12_345]

  for (const version of ['v1', 'v0'] as const) {
    for (const size of sizes) {
      it(`${version}, ${size} bytes in random pieces gives the stock importer's CID`, async () => {
        const bytes = chacha(`file/${size}`, size)
        const expected = await stockCid(bytes, version)
        // byte-sized pieces only where they stay cheap
        for (const maxPiece of size <= 2 * LEAF ? [1_000, 70_000, 3 * LEAF] : [70_000, 3 * LEAF]) {
          const cid = await computeFileCid(stream(pieces(bytes, `${size}/${maxPiece}`, maxPiece)), version)
          expect(cid.toString()).toBe(expected.toString())
        }
      })
    }
  }

  it('unixfs-v1-2025 (1 MiB leaves) gives the stock importer CID across leaf boundaries', async () => {
    const big = LEAF_BYTES['unixfs-v1-2025']
    for (const size of [big - 1, big, 3 * big + 7]) {
      const bytes = chacha(`2025/${size}`, size)
      const expected = await stockCid(bytes, 'unixfs-v1-2025')
      const cid = await computeFileCid(stream(pieces(bytes, `2025/${size}`, 100_000)), 'unixfs-v1-2025')
      expect(cid.toString()).toBe(expected.toString())
    }
  })

  it('a leaf boundary inside a chunk splits it exactly there', async () => {
    // one chunk spanning three leaves and a half: every cut falls inside it
    const bytes = chacha('span', 3 * LEAF + LEAF / 2)
    const cid = await computeFileCid(stream([bytes]), 'v1')
    expect(cid.toString()).toBe((await stockCid(bytes, 'v1')).toString())
  })
})

describe('LeafCutter into BalancedDagFrontier', () => {
  // what a resumable upload records: each request cut into leaves by its own LeafCutter, the open
  // leaf's bytes sent again first by the next request
  const sizes = [0, 1, LEAF, LEAF + 1, 174 * LEAF, 175 * LEAF + 12_345]
  for (const size of sizes) {
    it(`${size} bytes sent as requests of odd sizes give computeFileCid's CIDv1 from the digests alone`, async () => {
      const bytes = chacha(`leaves/${size}`, size)
      const digests: Uint8Array[] = []
      let carry: Uint8Array[] = []
      const requests = [...pieces(bytes, `requests/${size}`, 3 * LEAF + 777)]
      for (const [i, request] of requests.entries()) {
        const cutter = new LeafCutter(LEAF)
        const passed: Uint8Array[] = []
        for (const chunk of [...carry, ...pieces(request, `chunks/${i}`, 70_000)]) passed.push(...cutter.push(chunk))
        const last = i === requests.length - 1
        carry = cutter.finish(last)
        if (last) passed.push(...carry)
        digests.push(...cutter.digests)
        // the leaves a request passes on are whole leaves (but the file's last), in order
        expect(passed.reduce((sum, piece) => sum + piece.length, 0) % LEAF === 0 || last).toBe(true)
      }
      const frontier = BalancedDagFrontier.empty()
      for (const [i, digest] of digests.entries()) frontier.addLeaf(digest, Math.min(LEAF, size - i * LEAF))
      const cid = frontier.close().root
      expect(cid.toString()).toBe((await computeFileCid(stream([bytes]), 'v1')).toString())
    })
  }
})

describe('LeafCutter', () => {
  it('a leaf made of one-byte pieces is answered whole (pieces are not spread into one call)', () => {
    const bytes = chacha('leaves/one-byte', LEAF + 1)
    const cutter = new LeafCutter(LEAF)
    let passed = 0
    for (let at = 0; at < bytes.length; at++) passed += cutter.push(bytes.subarray(at, at + 1)).length
    expect(passed).toBe(LEAF)
    expect(cutter.finish(true)).toHaveLength(1)
    expect(cutter.digests).toHaveLength(2)
  })
})
