import { createHash } from 'node:crypto'
import { CarWriter } from '@ipld/car/writer'
import type { CidVersion } from '@pinfold/interface'
import { importer } from 'ipfs-unixfs-importer'
import { CID } from 'multiformats/cid'
import { describe, expect, it } from 'vitest'
import { multihashKey } from '../../src/content/dag/blocks.js'
import { fileBlockLocations } from '../../src/content/dag/file-blocks.js'
import { isInnerNode, writeFileDagIndex } from '../../src/content/dag/file-dag-index.js'
import { importCar } from '../../src/content/dag/import-car.js'
import { computeFileCid } from '../../src/content/unixfs/compute-cid.js'
import { kuboImporterOptions } from '../../src/content/unixfs/profiles.js'
import { createContentPolicy } from '../../src/denylist/content-policy.js'
import { Denylists } from '../../src/denylist/denylists.js'
import type { GatewayRoot } from '../../src/gateway/api.js'
import { openContentDag } from '../../src/gateway/content-dag.js'
import { createGatewayOperations, type GatewaySettings } from '../../src/gateway/gateway.js'
import { createGatewayReadCache, DEFAULT_GATEWAY_CACHE } from '../../src/gateway/read-cache.js'
import type { BlobStore, BlockLocation, ContentRecord } from '../../src/index.js'
import { blobStore } from '../support/blob-store.js'
import { chacha } from '../support/pseudo-random-bytes.js'

/** The block index of one blob, as the record store would answer for it. */
function blockIndex(locations: readonly BlockLocation[]) {
  const byHash = new Map(locations.map((location) => [multihashKey(location.multihash), location]))
  return { getBlockLocation: async (_blobKey: string, multihash: Uint8Array) => byHash.get(multihashKey(multihash)) }
}

/** Stores `bytes` as a file content the way an upload does: blob, sidecar of inner nodes, block index. */
async function storedFile(store: BlobStore, bytes: Uint8Array, profile: CidVersion, stored = bytes) {
  await store.put('blob', [stored] as unknown as AsyncIterable<Uint8Array>)
  const inner: { cid: CID; bytes: Uint8Array }[] = []
  const cid = await computeFileCid([bytes] as unknown as AsyncIterable<Uint8Array>, profile, (block) => {
    if (isInnerNode(block)) inner.push(block)
  })
  const sidecar = inner.length ? await writeFileDagIndex(store, 'blob', cid, inner) : []
  const content: ContentRecord = { cid: cid.toString(), blobKey: 'blob', size: bytes.length, kind: 'file', profile }
  const dag = openContentDag(content, cid, {
    blobs: store,
    records: blockIndex(fileBlockLocations(cid, sidecar, bytes.length)),
  })
  return { cid, dag }
}

async function cidOf(bytes: Uint8Array, profile: 'v0' | 'v1' | 'unixfs-v1-2025'): Promise<CID> {
  let root: CID | undefined
  const discard = { put: async (cid: CID) => cid }
  for await (const entry of importer([{ content: [bytes] }], discard, kuboImporterOptions(profile))) root = entry.cid
  return root!
}

async function collect(source: AsyncIterable<Uint8Array>): Promise<Uint8Array[]> {
  const parts: Uint8Array[] = []
  for await (const part of source) parts.push(part)
  return parts
}

const hashMatches = (cid: CID, bytes: Uint8Array) =>
  Buffer.compare(createHash('sha256').update(bytes).digest(), Buffer.from(cid.multihash.digest)) === 0

describe('file DAG', () => {
  for (const profile of ['v0', 'v1', 'unixfs-v1-2025'] as const) {
    it(`blocks - ${profile}: root first, each block once, every block re-hashes, leaves in file order`, async () => {
      // enough chunks for two levels under v0/v1 (174 links per node)
      const size = profile === 'unixfs-v1-2025' ? 3 * 1_048_576 + 5 : 180 * 4096 * 64 + 7
      const bytes = chacha(`dag-${profile}`, size)
      const { store } = blobStore()
      const { cid, dag } = await storedFile(store, bytes, profile)
      expect(cid.equals(await cidOf(bytes, profile))).toBe(true)
      const seen = new Set<string>()
      const leaves: Uint8Array[] = []
      let first: CID | undefined
      for await (const block of dag.blocks()) {
        first ??= block.cid
        expect(hashMatches(block.cid, block.bytes)).toBe(true)
        expect(seen.has(block.cid.toString())).toBe(false)
        seen.add(block.cid.toString())
        if (block.cid.code === 0x55) leaves.push(block.bytes)
        // a block handed out by blocks() is also what getBlock returns
        if (seen.size % 37 === 0)
          expect(Buffer.compare(Buffer.from((await dag.getBlock(block.cid))!), Buffer.from(block.bytes))).toBe(0)
      }
      expect(first?.equals(cid)).toBe(true)
      if (profile !== 'v0') expect(Buffer.compare(Buffer.concat(leaves), Buffer.from(bytes))).toBe(0)
      expect(
        await dag.getBlock(CID.parse('bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy')),
      ).toBeUndefined()
    })
  }

  it('getBlock - a leaf is one ranged read of the blob, not the whole file', async () => {
    const bytes = chacha('ranged', 262_144 * 8)
    const { store, stats } = blobStore()
    const { dag } = await storedFile(store, bytes, 'v1')
    const leafCid = await cidOf(bytes.subarray(262_144 * 5, 262_144 * 6), 'v1')
    const before = stats.bytesRead
    const leaf = await dag.getBlock(leafCid)
    expect(stats.bytesRead - before).toBe(262_144)
    expect(Buffer.compare(Buffer.from(leaf!), Buffer.from(bytes.subarray(262_144 * 5, 262_144 * 6)))).toBe(0)
  })

  it('blocks - a blob that no longer hashes to its CID is an INTERNAL error, never wrong blocks', async () => {
    const bytes = chacha('tamper', 262_144 * 2)
    const { store } = blobStore()
    const tampered = new Uint8Array(bytes)
    tampered[10] = tampered[10]! ^ 1
    const { dag } = await storedFile(store, bytes, 'v1', tampered)
    const firstLeaf = await cidOf(bytes.subarray(0, 262_144), 'v1')
    await expect(dag.getBlock(firstLeaf)).rejects.toMatchObject({ code: 'INTERNAL' })
    await expect(
      (async () => {
        for await (const _ of dag.blocks()) {
        }
      })(),
    ).rejects.toMatchObject({ code: 'INTERNAL' })
  })
})

describe('gateway over a car content (directories)', () => {
  async function folderContent() {
    const files = [
      { path: 'site/index.html', content: new TextEncoder().encode('<h1>home</h1>') },
      { path: 'site/docs/readme.txt', content: new TextEncoder().encode('read me') },
      { path: 'site/docs/big.bin', content: chacha('folder-big', 700_000) },
    ]
    const blocks: { cid: CID; bytes: Uint8Array }[] = []
    const capture = {
      put: async (cid: CID, bytes: Uint8Array) => {
        blocks.push({ cid, bytes })
        return cid
      },
    }
    let root: CID | undefined
    for await (const entry of importer(files, capture, kuboImporterOptions('v1')))
      if (entry.path === 'site') root = entry.cid
    const { writer, out } = CarWriter.create([root!])
    const chunks: Uint8Array[] = []
    const collecting = (async () => {
      for await (const chunk of out) chunks.push(chunk)
    })()
    for (const block of blocks) await writer.put(block)
    await writer.close()
    await collecting
    const { store, stats } = blobStore()
    const imported = await importCar(
      store,
      'car-blob',
      (async function* () {
        yield* chunks
      })(),
    )
    const content: ContentRecord = {
      cid: root!.toString(),
      blobKey: 'car-blob',
      size: imported.size,
      kind: 'car',
      profile: null,
    }
    const records = blockIndex(imported.locations)
    const gateway = createGatewayOperations({
      blobs: store,
      records: { blocks: records },
      gatewayCache: createGatewayReadCache(DEFAULT_GATEWAY_CACHE),
      deny: createContentPolicy(new Denylists(), true, () => {}),
    } as unknown as GatewaySettings)
    const gatewayRoot: GatewayRoot = {
      requested: root!,
      cid: root!,
      swapped: false,
      dag: openContentDag(content, root!, { blobs: store, records }),
    }
    return { gateway, root: gatewayRoot, big: files[2]!.content, stats }
  }

  it('entry - resolves paths, lists directories, reads file ranges', async () => {
    const { gateway, root, big } = await folderContent()
    const dir = await gateway.entry(root, [])
    expect(dir.type).toBe('directory')
    if (dir.type !== 'directory') return
    const names: string[] = []
    for await (const item of dir.list()) names.push(item.name)
    expect(names.sort()).toEqual(['docs', 'index.html'])
    const readme = await gateway.entry(root, ['docs', 'readme.txt'])
    expect(readme.type).toBe('file')
    if (readme.type !== 'file') return
    const text = Buffer.concat(await collect(await readme.read())).toString()
    expect(text).toBe('read me')
    const bigEntry = await gateway.entry(root, ['docs', 'big.bin'])
    if (bigEntry.type !== 'file') throw new Error('not a file')
    const slice = Buffer.concat(await collect(await bigEntry.read({ offset: 300_000, length: 1000 })))
    expect(Buffer.compare(slice, Buffer.from(big.subarray(300_000, 301_000)))).toBe(0)
    await expect(gateway.entry(root, ['docs', 'missing.txt'])).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })

  it('car - a path CAR carries the blocks along the path, then the terminal scope', async () => {
    const { gateway, root } = await folderContent()
    const { terminal, stream } = await gateway.car(root, ['docs', 'readme.txt'])
    const { CarBlockIterator } = await import('@ipld/car/iterator')
    const reader = await CarBlockIterator.fromIterable(stream)
    const cids: CID[] = []
    for await (const block of reader) {
      expect(hashMatches(block.cid, block.bytes)).toBe(true)
      cids.push(block.cid)
    }
    expect(cids[0]!.equals(root.cid)).toBe(true) // the root directory, then docs/, then the file
    expect(cids.at(-1)!.equals(terminal)).toBe(true)
    expect(cids.length).toBe(3)
    await expect(gateway.car(root, ['nope'])).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })
})
