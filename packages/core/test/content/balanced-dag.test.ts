import { createHash } from 'node:crypto'
import fc from 'fast-check'
import { type ImporterOptions, importer } from 'ipfs-unixfs-importer'
import { CID } from 'multiformats/cid'
import * as raw from 'multiformats/codecs/raw'
import * as Digest from 'multiformats/hashes/digest'
import { sha256 } from 'multiformats/hashes/sha2'
import { describe, expect, it } from 'vitest'
import { BALANCED_WIDTH, BalancedDagFrontier } from '../../src/content/unixfs/balanced-dag.js'
import { kuboImporterOptions, LEAF_BYTES } from '../../src/content/unixfs/profiles.js'

const LEAF = LEAF_BYTES.v1
const W = BALANCED_WIDTH

/** Leaf digests of a file: `distinct` of them repeat in turn (a file of zeros has one). */
const digestsOf = (count: number, distinct: number, seed: number) =>
  Array.from({ length: count }, (_, i) =>
    createHash('sha256')
      .update(`${seed}/${i % distinct}`)
      .digest(),
  )

/** The stock importer with Kubo's CIDv1 settings over leaves given as digests: its root and every block it stores. */
async function importerDag(digests: Uint8Array[], lastSize: number) {
  const blocks = new Map<string, Uint8Array>()
  const options: ImporterOptions = {
    ...kuboImporterOptions('v1'),
    chunker: (source) => source,
    bufferImporter: async function* () {
      for (const [i, digest] of digests.entries()) {
        const size = i === digests.length - 1 ? lastSize : LEAF
        yield async () => ({
          cid: CID.createV1(raw.code, Digest.create(sha256.code, digest)),
          size: BigInt(size),
          block: new Uint8Array(0),
        })
      }
    },
  }
  const store = {
    put: async (cid: CID, bytes: Uint8Array) => {
      blocks.set(cid.toString(), bytes)
      return cid
    },
  }
  let root: CID | undefined
  for await (const entry of importer([{ content: (async function* () {})() }], store, options)) root = entry.cid
  return { root: root!.toString(), blocks }
}

/** The frontier fed the same leaves, serialized and restored at each of `stops` (as between PATCHes). */
function frontierDag(digests: Uint8Array[], lastSize: number, stops: ReadonlySet<number>) {
  const blocks = new Map<string, Uint8Array>()
  let frontier = BalancedDagFrontier.empty()
  const keep = (made: { cid: CID; bytes: Uint8Array }[]) => {
    for (const { cid, bytes } of made) blocks.set(cid.toString(), bytes)
  }
  for (const [i, digest] of digests.entries()) {
    if (stops.has(i)) frontier = BalancedDagFrontier.restore(frontier.serialize())
    keep(frontier.addLeaf(digest, i === digests.length - 1 ? lastSize : LEAF))
  }
  const { root, nodes } = frontier.close()
  keep(nodes)
  return { root: root.toString(), blocks }
}

async function expectSameDag(count: number, lastSize: number, distinct: number, stops: number[] = []) {
  const digests = digestsOf(count, distinct, count)
  const expected = await importerDag(digests, lastSize)
  const actual = frontierDag(digests, lastSize, new Set(stops))
  expect(actual.root).toBe(expected.root)
  // the same file nodes, byte for byte (the importer's map also holds nothing else: leaves are not stored)
  expect(new Map([...actual.blocks].sort())).toEqual(new Map([...expected.blocks].sort()))
}

describe('BalancedDagFrontier', () => {
  // the layout's edges: one leaf, a full node, one over, a full second level, one over it
  for (const count of [1, 2, W - 1, W, W + 1, 2 * W, 2 * W + 1, W * W, W * W + 1]) {
    // the importer alone takes ~14 s over W² leaves here, twice that on a loaded machine
    it(`${count} leaves give the importer's DAG (root and every file node)`, { timeout: 120_000 }, async () => {
      await expectSameDag(count, count === 1 ? 1234 : LEAF - 17, count)
    })
  }

  it('an empty file closes to the empty raw leaf, as the importer gives it', async () => {
    const frontier = BalancedDagFrontier.empty()
    expect(frontier.close().root.toString()).toBe((await importerDag([createHash('sha256').digest()], 0)).root)
  })

  it("any leaf count, last leaf size, repeats and restore points give the importer's DAG", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 3 * W + 5 }),
        fc.integer({ min: 1, max: LEAF }),
        fc.integer({ min: 1, max: 400 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        async (count, lastSize, distinct, stops) => {
          await expectSameDag(
            count,
            lastSize,
            distinct,
            stops.map((s) => s % count),
          )
        },
      ),
      { numRuns: 40 },
    )
  })

  it('a frontier it cannot read is INTERNAL', () => {
    expect(() => BalancedDagFrontier.restore('{"levels":')).toThrow(expect.objectContaining({ code: 'INTERNAL' }))
  })
})
