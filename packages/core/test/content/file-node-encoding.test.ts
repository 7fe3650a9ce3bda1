import { createHash } from 'node:crypto'
import * as dagPb from '@ipld/dag-pb'
import type { CidVersion } from '@pinfold/interface'
import fc from 'fast-check'
import { UnixFS } from 'ipfs-unixfs'
import { type BufferImporter, importer } from 'ipfs-unixfs-importer'
import { CID } from 'multiformats/cid'
import * as raw from 'multiformats/codecs/raw'
import * as Digest from 'multiformats/hashes/digest'
import { sha256 } from 'multiformats/hashes/sha2'
import { describe, expect, it } from 'vitest'
import type { Block } from '../../src/content/dag/blocks.js'
import { checkFileNode } from '../../src/content/unixfs/file-node-check.js'
import { kuboImporterOptions, LEAF_BYTES } from '../../src/content/unixfs/profiles.js'
import { hashOnlyRawLeaves } from '../../src/content/unixfs/raw-leaf-hasher.js'

/**
 * The file nodes above the leaves carry the sizes of what they span as protobuf uint64 varints
 * (UnixFS `filesize` and `blocksizes`). protons-runtime, which ipfs-unixfs encodes them with,
 * wrote any value in [2^31, 2^32) as one byte followed by four bytes it never wrote (uninitialized
 * memory from `Buffer.allocUnsafe`): the root of every 2–4 GiB file was malformed, and the bytes
 * hashed into its CID depended on what that memory last held. Uploads of 2 GiB failed with
 * "invalid wire type" / "index out of range" when the node was decoded at commit, and succeeded with
 * a CID Kubo never gives when the garbage happened to decode (patches/protons-runtime.patch).
 *
 * The expected bytes here come from the protobuf and UnixFS specifications, written out below, not
 * from the encoder under test. Leaves are not hashed: the DAG above them is built from their CIDs
 * and sizes alone, so files of several GiB cost milliseconds.
 */

/** A protobuf varint, from the specification: 7 bits at a time, low group first. */
function varint(value: bigint): number[] {
  const out: number[] = []
  do {
    const low = Number(value & 0x7fn)
    value >>= 7n
    out.push(value > 0n ? low | 0x80 : low)
  } while (value > 0n)
  return out
}

/** `Data` of a UnixFS file node without data, mode or mtime (the nodes above the leaves). */
function fileNodeData(blockSizes: readonly bigint[]): Uint8Array {
  const total = blockSizes.reduce((sum, size) => sum + size, 0n)
  return Uint8Array.from([0x08, 0x02, 0x18, ...varint(total), ...blockSizes.flatMap((size) => [0x20, ...varint(size)])])
}

const cidOf = (code: number, bytes: Uint8Array) =>
  CID.createV1(code, Digest.create(sha256.code, createHash('sha256').update(bytes).digest()))

/** A stand-in raw leaf of `size` bytes: a CID of its own, no bytes (equal leaves are one block, as in Kubo). */
const leafCids = new Map<number, CID>()
function leafCid(size: number): CID {
  let cid = leafCids.get(size)
  if (!cid) {
    cid = cidOf(raw.code, new TextEncoder().encode(`leaf of ${size} bytes`))
    leafCids.set(size, cid)
  }
  return cid
}

interface Child {
  cid: CID
  fileSize: bigint
  tsize: number
}

/** Kubo's balanced layout over `leaves`, level by level: the nodes above the leaves in that order, root last. */
function referenceDag(leaves: Child[], maxChildren: number): Block[] {
  const nodes: Block[] = []
  let level = leaves
  while (level.length > 1) {
    const next: Child[] = []
    for (let at = 0; at < level.length; at += maxChildren) {
      const children = level.slice(at, at + maxChildren)
      const bytes = dagPb.encode(
        dagPb.prepare({
          Data: fileNodeData(children.map((child) => child.fileSize)),
          Links: children.map((child) => ({ Hash: child.cid, Name: '', Tsize: child.tsize })),
        }),
      )
      const cid = cidOf(dagPb.code, bytes)
      nodes.push({ cid, bytes })
      next.push({
        cid,
        fileSize: children.reduce((sum, child) => sum + child.fileSize, 0n),
        tsize: bytes.length + children.reduce((sum, child) => sum + child.tsize, 0),
      })
    }
    level = next
  }
  return nodes
}

/** The leaves of a file of `size` bytes (at least two) with `leafBytes` leaves. */
function leavesOf(size: bigint, leafBytes: number): Child[] {
  const count = Number((size + BigInt(leafBytes) - 1n) / BigInt(leafBytes))
  const last = Number(size - BigInt(count - 1) * BigInt(leafBytes))
  return Array.from({ length: count }, (_, i) => {
    const bytes = i === count - 1 ? last : leafBytes
    return { cid: leafCid(bytes), fileSize: BigInt(bytes), tsize: bytes }
  })
}

/**
 * The importer with Pinfold's settings for `profile` (those of `computeFileCid`), its leaves
 * replaced by `leaves`: every block it stores, and its root.
 */
async function importedDag(leaves: Child[], profile: CidVersion) {
  const fakeLeaves: BufferImporter = async function* () {
    for (const leaf of leaves) {
      yield async () => ({ cid: leaf.cid, size: leaf.fileSize, block: new Uint8Array(0) })
    }
  }
  const options = {
    ...hashOnlyRawLeaves(kuboImporterOptions(profile), LEAF_BYTES[profile]),
    bufferImporter: fakeLeaves,
  }
  const nodes: Block[] = []
  const blockstore = {
    put: async (cid: CID, bytes: Uint8Array) => {
      nodes.push({ cid, bytes })
      return cid
    },
  }
  let root: CID | undefined
  for await (const entry of importer([{ content: (async function* () {})() }], blockstore, options)) root = entry.cid
  return { root: root!, nodes }
}

const GiB = 2n ** 30n
const LINKS = { v1: 174, 'unixfs-v1-2025': 1024 } as const
type RawLeafProfile = keyof typeof LINKS

const hex = (bytes: Uint8Array | undefined) => Buffer.from(bytes ?? []).toString('hex')

/** The importer builds, for a file of `size` bytes, the DAG Kubo builds: node by node, byte for byte. */
async function expectKuboDag(size: bigint, profile: RawLeafProfile) {
  const leaves = leavesOf(size, LEAF_BYTES[profile])
  const expected = referenceDag(leaves, LINKS[profile])
  const actual = await importedDag(leaves, profile)
  expect(actual.nodes.length, `nodes above the leaves of a ${size}-byte file`).toBe(expected.length)
  expected.forEach((node, i) => {
    // the UnixFS part first: where an encoding goes wrong, that is the readable difference
    const where = `node ${i + 1} of ${expected.length} of a ${size}-byte file (${profile})`
    expect(hex(dagPb.decode(actual.nodes[i]!.bytes).Data), `${where}: UnixFS data`).toBe(
      hex(dagPb.decode(node.bytes).Data),
    )
    expect(actual.nodes[i]!.cid.toString(), where).toBe(node.cid.toString())
    expect(() => checkFileNode(actual.nodes[i]!.cid, actual.nodes[i]!.bytes)).not.toThrow()
  })
  expect(actual.root.toString(), `root of a ${size}-byte file`).toBe(expected.at(-1)!.cid.toString())
}

describe('UnixFS file node encoding', () => {
  it('filesize and blocksizes are written as the specification says, whatever their value', () => {
    const around = (edge: bigint) => fc.bigInt({ min: edge - 3n, max: edge + 3n })
    const size = fc.oneof(
      fc.bigInt({ min: 0n, max: 2n ** 56n }),
      fc.bigInt({ min: 2n ** 31n, max: 2n ** 32n - 1n }),
      around(2n ** 31n),
      around(2n ** 32n),
      fc.constantFrom(0n, 2n ** 31n, 3n * GiB, 2n ** 32n - 1n, 2n ** 35n + 2n ** 31n),
    )
    fc.assert(
      fc.property(fc.array(size, { maxLength: 8 }), (blockSizes) => {
        const encoded = new UnixFS({ type: 'file', blockSizes }).marshal()
        expect(Buffer.from(encoded).toString('hex')).toBe(Buffer.from(fileNodeData(blockSizes)).toString('hex'))
        expect(UnixFS.unmarshal(encoded).fileSize()).toBe(blockSizes.reduce((sum, s) => sum + s, 0n))
      }),
      { numRuns: 500 },
    )
  })

  // 2048 MiB is the upload benchmark's second file: its root spans exactly 2^31 bytes.
  for (const size of [2n * GiB, 2n * GiB + 1n, 3n * GiB, 4n * GiB - 1n, 4n * GiB, 2n * GiB - 1n]) {
    it(`v1: a ${size}-byte file gets Kubo's DAG (root filesize ${size})`, async () => {
      await expectKuboDag(size, 'v1')
    })
  }

  it("v1: a file of 10 GiB gets Kubo's DAG (a third level; its second node spans 2.6 GiB)", async () => {
    await expectKuboDag(10n * GiB, 'v1')
  })

  it("unixfs-v1-2025: a 2 GiB and a 3 GiB file get Kubo's DAG (1 MiB leaves, 1024 links)", async () => {
    await expectKuboDag(2n * GiB, 'unixfs-v1-2025')
    await expectKuboDag(3n * GiB + 5n, 'unixfs-v1-2025')
  })

  it("any file size up to 12 GiB gets Kubo's DAG, under either raw-leaf profile", async () => {
    const leaf = BigInt(LEAF_BYTES.v1)
    const size = fc.oneof(
      // more than one leaf of either profile (1 MiB for unixfs-v1-2025)
      fc.bigInt({ min: BigInt(LEAF_BYTES['unixfs-v1-2025']) + 1n, max: 12n * GiB }),
      fc.bigInt({ min: 2n ** 31n, max: 2n ** 32n - 1n }),
      // a last second-level node (174 × 174 leaves = 7.4 GiB) that spans 2–4 GiB
      fc.bigInt({ min: 174n * 174n * leaf + 2n ** 31n, max: 174n * 174n * leaf + 2n ** 32n - 1n }),
    )
    const profile = fc.constantFrom<RawLeafProfile>('v1', 'unixfs-v1-2025')
    await fc.assert(
      fc.asyncProperty(size, profile, async (bytes, p) => {
        await expectKuboDag(bytes, p)
      }),
      { numRuns: 12 },
    )
  }, 120_000)
})

describe('checkFileNode', () => {
  const root = (size: bigint) => referenceDag(leavesOf(size, LEAF_BYTES.v1), LINKS.v1).at(-1)!

  it('accepts the nodes Kubo writes', () => {
    for (const size of [2n * GiB, 3n * GiB, 5n * GiB]) {
      const { cid, bytes } = root(size)
      expect(() => checkFileNode(cid, bytes)).not.toThrow()
    }
  })

  it('refuses the root a broken uint64 encoder wrote for 2 GiB, whatever its unwritten bytes held', () => {
    const { bytes } = root(2n * GiB)
    const right = Buffer.from([0x18, ...varint(2n * GiB)]).toString('hex') // filesize 2^31: 18 80 80 80 80 08
    for (const garbage of ['00000000', '00663966', '944a02a3']) {
      const wrong = Buffer.from(Buffer.from(bytes).toString('hex').replace(right, `1800${garbage}`), 'hex')
      expect(wrong.equals(Buffer.from(bytes))).toBe(false)
      expect(() => checkFileNode(cidOf(dagPb.code, wrong), wrong)).toThrow(
        expect.objectContaining({ code: 'INTERNAL' }),
      )
    }
  })

  it('leaves and directories pass untouched', () => {
    const leaf = dagPb.encode({ Data: new UnixFS({ type: 'file', data: new Uint8Array(3) }).marshal(), Links: [] })
    expect(() => checkFileNode(cidOf(dagPb.code, leaf), leaf)).not.toThrow()
    const rawLeaf = new Uint8Array([1, 2, 3])
    expect(() => checkFileNode(cidOf(raw.code, rawLeaf), rawLeaf)).not.toThrow()
    const dir = dagPb.encode(
      dagPb.prepare({
        Data: new UnixFS({ type: 'directory' }).marshal(),
        Links: [{ Hash: leafCid(1), Name: 'a', Tsize: 1 }],
      }),
    )
    expect(() => checkFileNode(cidOf(dagPb.code, dir), dir)).not.toThrow()
  })
})
