import fc from 'fast-check'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { LEAF_BYTES } from '../../src/content/unixfs/profiles.js'
import { type RawLeaf, RawLeafHasher } from '../../src/content/unixfs/raw-leaf-hasher.js'
import { ThreadPoolLeafHasher } from '../../src/content/unixfs/thread-pool-leaf-hasher.js'
import { delayedDigests } from '../support/delayed-digests.js'
import { chacha, pieces } from '../support/pseudo-random-bytes.js'

const LEAF = LEAF_BYTES.v1

const shown = (leaves: RawLeaf[]) => leaves.map(({ digest, size }) => `${Buffer.from(digest).toString('hex')}/${size}`)

/** The main thread's leaves of `chunks`: what the pool must deliver. */
function mainThreadLeaves(chunks: Iterable<Uint8Array>): string[] {
  const leaves: RawLeaf[] = []
  const hasher = new RawLeafHasher(LEAF, (leaf) => leaves.push(leaf))
  for (const chunk of chunks) hasher.update(chunk)
  hasher.finish()
  return shown(leaves)
}

/** The pool's leaves of `chunks`, fed as `storeFileOnePass` feeds them: waiting while it is behind. */
async function poolLeaves(chunks: Iterable<Uint8Array>, aheadBytes?: number): Promise<string[]> {
  const leaves: RawLeaf[] = []
  const hasher = new ThreadPoolLeafHasher(LEAF, (leaf) => leaves.push(leaf), aheadBytes)
  for (const chunk of chunks) {
    hasher.update(chunk)
    if (hasher.behind) await hasher.caughtUp()
  }
  hasher.finish()
  await hasher.delivered()
  return shown(leaves)
}

describe('ThreadPoolLeafHasher', () => {
  afterEach(() => {
    vi.restoreAllMocks()
  })

  it("any size and any split into chunks gives the main thread's leaves, in order", async () => {
    // sizes near the edges (empty, one leaf either side, exact multiples) and anywhere up to 9 leaves
    const near = (leaves: number) => fc.integer({ min: Math.max(0, leaves * LEAF - 2), max: leaves * LEAF + 2 })
    const size = fc.oneof(fc.integer({ min: 0, max: 9 * LEAF }), near(0), near(1), near(2), near(5))
    await fc.assert(
      fc.asyncProperty(
        size,
        fc.constantFrom(1_000, 65_536, LEAF, 3 * LEAF),
        fc.integer({ min: LEAF, max: 4 * LEAF }),
        fc.string(),
        async (size, maxPiece, aheadBytes, seed) => {
          const bytes = chacha(`pool/${seed}`, size)
          const chunks = [...pieces(bytes, `pool/${seed}/${maxPiece}`, maxPiece)]
          expect(await poolLeaves(chunks, aheadBytes)).toEqual(mainThreadLeaves(chunks))
        },
      ),
      { numRuns: 60 },
    )
  }, 60_000)

  it('digests the pool finishes out of order still reach onLeaf in leaf order', async () => {
    // the first leaves take longest
    delayedDigests((n) => Math.max(0, 40 - 10 * n))
    const bytes = chacha('pool/out-of-order', 6 * LEAF + 7)
    const chunks = [...pieces(bytes, 'pool/out-of-order', 70_000)]
    expect(await poolLeaves(chunks)).toEqual(mainThreadLeaves(chunks))
  })

  it('a pool that lags: no more than the bound in flight, and the producer reads on once half of them are back', async () => {
    const seen = delayedDigests(() => 2)
    const aheadBytes = 4 * LEAF
    const bytes = chacha('pool/lag', 40 * LEAF)
    const chunks = [...pieces(bytes, 'pool/lag', 65_536)]
    expect(await poolLeaves(chunks, aheadBytes)).toEqual(mainThreadLeaves(chunks))
    // one chunk completes at most one leaf, so one leaf past the bound before the wait
    expect(seen.mostInFlight).toBe(4 + 1)
  })

  it('a failed digest surfaces at the next wait, nothing after it is delivered, and abandon waits out the rest', async () => {
    const seen = delayedDigests(
      (n) => (n === 2 ? 1 : 20),
      (n) => n === 2,
    )
    const delivered: RawLeaf[] = []
    const hasher = new ThreadPoolLeafHasher(LEAF, (leaf) => delivered.push(leaf))
    hasher.update(chacha('pool/failure', 5 * LEAF))
    await expect(hasher.delivered()).rejects.toThrow('digest 2 failed')
    expect(hasher.behind).toBe(true)
    await expect(hasher.caughtUp()).rejects.toThrow('digest 2 failed')
    await hasher.abandon()
    expect(seen.settled).toBe(seen.started)
    expect(delivered).toEqual([]) // leaves 0 and 1 came back after the failure
  })

  it('abandoned mid-way: the leaves still in flight settle and none is delivered after', async () => {
    const seen = delayedDigests(() => 10)
    const delivered: RawLeaf[] = []
    const hasher = new ThreadPoolLeafHasher(LEAF, (leaf) => delivered.push(leaf))
    hasher.update(chacha('pool/abandon', 3 * LEAF + 5))
    await hasher.abandon()
    expect(seen).toMatchObject({ started: 3, settled: 3 })
    expect(delivered).toEqual([])
  })

  it('onLeaf throwing is the failure the producer sees', async () => {
    const hasher = new ThreadPoolLeafHasher(LEAF, () => {
      throw new Error('malformed node')
    })
    hasher.update(new Uint8Array(LEAF))
    hasher.finish()
    await expect(hasher.delivered()).rejects.toThrow('malformed node')
  })
})
