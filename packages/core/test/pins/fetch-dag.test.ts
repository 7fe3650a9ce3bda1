import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { CarBlockIterator } from '@ipld/car/iterator'
import * as dagCbor from '@ipld/dag-cbor'
import * as dagPb from '@ipld/dag-pb'
import { importer } from 'ipfs-unixfs-importer'
import { CID } from 'multiformats/cid'
import { identity } from 'multiformats/hashes/identity'
import { sha256 } from 'multiformats/hashes/sha2'
import { describe, expect, it } from 'vitest'
import { type CarBlobWriter, createCarBlobWriter } from '../../src/content/dag/car-blob.js'
import { kuboImporterOptions } from '../../src/content/unixfs/profiles.js'
import { type BlockFetcher, PinfoldError } from '../../src/index.js'
import { DagFetchFailure, fetchDag } from '../../src/pins/fetch-dag.js'
import { blobStore } from '../support/blob-store.js'
import { chacha } from '../support/pseudo-random-bytes.js'

/**
 * fetchDag against DAGs a requester controls: what it may make the job fetch and hold is bounded
 * by distinct blocks, however often they are linked.
 */

async function cborBlock(value: unknown): Promise<{ cid: CID; bytes: Uint8Array }> {
  const bytes = dagCbor.encode(value)
  return { cid: CID.create(1, dagCbor.code, await sha256.digest(bytes)), bytes }
}

/** A fetcher over a map of blocks, counting what it is asked; blocks it lacks are NOT_FOUND. */
function mapFetcher(blocks: Map<string, Uint8Array>): BlockFetcher & { calls: string[] } {
  const calls: string[] = []
  return {
    name: 'map',
    calls,
    async getBlock(cid) {
      calls.push(cid)
      const bytes = blocks.get(cid)
      if (!bytes) throw new PinfoldError('NOT_FOUND', `no block ${cid}`)
      return bytes.slice()
    },
  }
}

/** A source that takes every request and never answers: its call ends only when its signal aborts. */
function silentFetcher(): BlockFetcher & { calls: string[]; released: number } {
  const fetcher = {
    name: 'silent',
    calls: [] as string[],
    released: 0,
    getBlock(cid: string, { signal }: { signal?: AbortSignal }) {
      fetcher.calls.push(cid)
      return new Promise<Uint8Array>((_, reject) =>
        signal?.addEventListener('abort', () => {
          fetcher.released++
          reject(new PinfoldError('ABORTED', 'aborted'))
        }),
      )
    },
  }
  return fetcher
}

async function carBlocks(bytes: Uint8Array): Promise<Map<string, Uint8Array>> {
  const found = new Map<string, Uint8Array>()
  for await (const block of await CarBlockIterator.fromBytes(bytes)) found.set(block.cid.toString(), block.bytes)
  return found
}

const signal = () => new AbortController().signal

describe('fetchDag', () => {
  it('a ladder of 40 levels, each linking the next twice (2^40 paths): each block fetched once and stored once', async () => {
    const blocks = new Map<string, Uint8Array>()
    let next = await cborBlock({ leaf: true })
    blocks.set(next.cid.toString(), next.bytes)
    for (let level = 0; level < 40; level++) {
      next = await cborBlock({ level, left: next.cid, right: next.cid })
      blocks.set(next.cid.toString(), next.bytes)
    }
    const root = next.cid
    const fetcher = mapFetcher(blocks)
    const { store, blobs } = blobStore()
    const writer = createCarBlobWriter(store, 'car', root)
    const distinctBytes = [...blocks.values()].reduce((sum, bytes) => sum + bytes.length, 0)
    // the caps exactly at the distinct blocks: a budget counted per path would trip them
    await fetchDag(
      root,
      [fetcher],
      writer,
      { maxBytes: distinctBytes, maxBlocks: blocks.size, concurrency: 4, blockTimeoutMs: 60_000 },
      {
        signal: signal(),
      },
    )
    const written = await writer.close()

    expect(fetcher.calls.toSorted()).toEqual([...blocks.keys()].toSorted())
    expect(written.dagSize).toBe(distinctBytes)
    expect(await carBlocks(blobs.get('car')!)).toEqual(blocks)
  })

  it('links inside an identity CID are followed; the identity block itself is neither fetched nor stored', async () => {
    const leaf = await cborBlock({ leaf: 'under an identity node' })
    const inline = dagCbor.encode({ inner: leaf.cid })
    const inlineCid = CID.create(1, dagCbor.code, identity.digest(inline))
    const root = await cborBlock({ inline: inlineCid })
    const blocks = new Map([
      [root.cid.toString(), root.bytes],
      [leaf.cid.toString(), leaf.bytes],
    ])
    const fetcher = mapFetcher(blocks)
    const { store, blobs } = blobStore()
    const writer = createCarBlobWriter(store, 'car', root.cid)
    await fetchDag(
      root.cid,
      [fetcher],
      writer,
      { maxBytes: 1e6, maxBlocks: 10, concurrency: 2, blockTimeoutMs: 60_000 },
      { signal: signal() },
    )
    await writer.close()

    expect(fetcher.calls.toSorted()).toEqual([...blocks.keys()].toSorted())
    expect(await carBlocks(blobs.get('car')!)).toEqual(blocks)
  })

  it('a block linking more distinct blocks than the cap ends too_large before any of them is fetched', async () => {
    // 20,000 links in one 800 KB block: what the job holds must not grow with what a block lists
    const links = await Promise.all(
      Array.from({ length: 20_000 }, async (_, i) =>
        CID.create(1, 0x55, await sha256.digest(new TextEncoder().encode(`missing ${i}`))),
      ),
    )
    const root = await cborBlock(links)
    const fetcher = mapFetcher(new Map([[root.cid.toString(), root.bytes]]))
    const { store } = blobStore()
    const writer = createCarBlobWriter(store, 'car', root.cid)
    const fetching = fetchDag(
      root.cid,
      [fetcher],
      writer,
      { maxBytes: 1e9, maxBlocks: 100, concurrency: 8, blockTimeoutMs: 60_000 },
      {
        signal: signal(),
      },
    )

    await expect(fetching).rejects.toBeInstanceOf(DagFetchFailure)
    await expect(fetching).rejects.toMatchObject({ failure: 'too_large' })
    expect(fetcher.calls).toEqual([root.cid.toString()])
    await writer.abort(new Error('test over'))
  })

  it('links still to fetch do not keep the blocks that listed them in memory', async () => {
    setFlagsFromString('--expose-gc')
    const gc = runInNewContext('gc') as () => void
    // a chain of 1 MiB dag-pb nodes, each linking the next and a leaf; depth first, the leaves wait
    // on the stack while the chain is walked, and each must hold only its CID, not its parent node
    const depth = 24
    const blocks = new Map<string, Uint8Array>()
    const leaves = await Promise.all(
      Array.from({ length: depth }, async (_, i) => {
        const bytes = new TextEncoder().encode(`leaf ${i}`)
        const cid = CID.create(1, 0x55, await sha256.digest(bytes))
        blocks.set(cid.toString(), bytes)
        return cid
      }),
    )
    let next: CID | undefined
    for (let i = depth - 1; i >= 0; i--) {
      const links = [...(next ? [{ Hash: next, Tsize: 0 }] : []), { Hash: leaves[i]!, Tsize: 0 }]
      const bytes = dagPb.encode(dagPb.prepare({ Data: new Uint8Array(1024 * 1024).fill(i), Links: links }))
      next = CID.create(1, dagPb.code, await sha256.digest(bytes))
      blocks.set(next.toString(), bytes)
    }
    const chain = new Set([...blocks.keys()].filter((cid) => cid.startsWith('bafybei')))
    // the memory itself (a view of it is a separate object that may be collected on its own)
    const handedOut: WeakRef<ArrayBufferLike>[] = []
    let alive = -1
    const fetcher: BlockFetcher = {
      name: 'map',
      async getBlock(cid) {
        if (chain.has(cid) && handedOut.length === depth - 1) {
          // the last node of the chain: every leaf is on the stack now
          await new Promise((resolve) => setTimeout(resolve, 0))
          gc()
          alive = handedOut.filter((ref) => ref.deref() !== undefined).length
        }
        const bytes = blocks.get(cid)!.slice()
        if (chain.has(cid)) handedOut.push(new WeakRef(bytes.buffer))
        return bytes
      },
    }
    // written nowhere: only what fetchDag itself keeps is measured
    const writer: CarBlobWriter = {
      put: async () => {},
      close: async () => ({ size: 0, dagSize: 0, locations: [] }),
      abort: async () => {},
    }
    await fetchDag(
      next!,
      [fetcher],
      writer,
      { maxBytes: 1e9, maxBlocks: 100, concurrency: 1, blockTimeoutMs: 60_000 },
      { signal: signal() },
    )

    // measured at the last node (-1 if never); the one being visited may still be referenced, not the 22 above
    expect(alive).toBeGreaterThanOrEqual(0)
    expect(alive).toBeLessThanOrEqual(1)
  })

  it('DAGs made by ipfs-unixfs-importer (files at chunk boundaries, a nested folder): stored block for block', async () => {
    const drawn = Buffer.from(chacha('sizes', 16))
    const chunk = 256 * 1024
    const lengths = [1, chunk - 1, chunk, chunk + 1, 174 * chunk + 1]
    for (let i = 0; i < 4; i++) lengths.push(drawn.readUInt32LE(i * 4) % (3 * 1024 * 1024))
    const inputs = [
      ...lengths.map((length, i) => ({ name: `file ${length}`, entries: [{ content: chacha(`f${i}`, length) }] })),
      {
        name: 'nested folder',
        entries: lengths.slice(0, 4).map((length, i) => ({
          path: `site/${'d/'.repeat(i)}f${i}.bin`,
          content: chacha(`d${i}`, length),
        })),
      },
    ]
    for (const input of inputs) {
      const blocks = new Map<string, Uint8Array>()
      const capture = {
        put: async (cid: CID, bytes: Uint8Array) => {
          blocks.set(cid.toString(), bytes)
          return cid
        },
      }
      let root: CID | undefined
      for await (const entry of importer(input.entries, capture, kuboImporterOptions('v1'))) {
        if (!entry.path?.includes('/')) root = entry.cid
      }
      const fetcher = mapFetcher(blocks)
      const { store, blobs } = blobStore()
      const writer = createCarBlobWriter(store, 'car', root!)
      const shape = await fetchDag(
        root!,
        [fetcher],
        writer,
        { maxBytes: 1e9, maxBlocks: 1e4, concurrency: 8, blockTimeoutMs: 60_000 },
        {
          signal: signal(),
        },
      )
      const written = await writer.close()

      const stored = await carBlocks(blobs.get('car')!)
      // Compared block by block with Buffer.equals: a deep equality over 44 MiB of typed arrays takes minutes.
      expect([...stored.keys()].sort(), input.name).toEqual([...blocks.keys()].sort())
      for (const [cid, bytes] of blocks) expect(Buffer.from(bytes).equals(stored.get(cid)!), cid).toBe(true)
      expect(written.dagSize, input.name).toBe([...blocks.values()].reduce((sum, bytes) => sum + bytes.length, 0))
      if (input.entries.length === 1) {
        expect(shape.kind, input.name).toBe('file')
        expect(
          Buffer.from(shape.head).equals(Buffer.from(input.entries[0]!.content.subarray(0, 4100))),
          input.name,
        ).toBe(true)
      } else {
        expect([shape.kind, shape.files]).toEqual(['directory', input.entries.length])
      }
    }
  })

  it('a source that never answers is given up on each block after blockTimeoutMs; the next source serves the DAG', async () => {
    const leaves = [await cborBlock({ leaf: 1 }), await cborBlock({ leaf: 2 })]
    const root = await cborBlock({ leaves: leaves.map((l) => l.cid) })
    const blocks = new Map([root, ...leaves].map((b) => [b.cid.toString(), b.bytes]))
    const silent = silentFetcher()
    const fetcher = mapFetcher(blocks)
    const { store, blobs } = blobStore()
    const writer = createCarBlobWriter(store, 'car', root.cid)
    // the job's own signal never fires: only the per-block budget can move past the silent source
    await fetchDag(
      root.cid,
      [silent, fetcher],
      writer,
      { maxBytes: 1e6, maxBlocks: 10, concurrency: 2, blockTimeoutMs: 50 },
      { signal: signal() },
    )
    await writer.close()
    expect(silent.calls.toSorted()).toEqual([...blocks.keys()].toSorted())
    expect(silent.released).toBe(blocks.size)
    expect(await carBlocks(blobs.get('car')!)).toEqual(blocks)
  })

  it('a block only a silent source is asked for ends not_found, naming the budget', async () => {
    const root = await cborBlock({ alone: true })
    const silent = silentFetcher()
    const { store } = blobStore()
    const writer = createCarBlobWriter(store, 'car', root.cid)
    const fetching = fetchDag(
      root.cid,
      [silent],
      writer,
      { maxBytes: 1e6, maxBlocks: 10, concurrency: 1, blockTimeoutMs: 50 },
      { signal: signal() },
    )
    await expect(fetching).rejects.toMatchObject({
      failure: 'not_found',
      message: `block ${root.cid} was not found (silent: no answer within 50 ms)`,
    })
    await writer.abort(new Error('test over'))
  })

  it('a dag-cbor block nested two million deep ends invalid_object, not a crash', async () => {
    const bytes = new Uint8Array(2_000_001).fill(0x81) // [[[[…null…]]]]
    bytes[2_000_000] = 0xf6
    const cid = CID.create(1, dagCbor.code, await sha256.digest(bytes))
    const fetcher = mapFetcher(new Map([[cid.toString(), bytes]]))
    const { store } = blobStore()
    const writer = createCarBlobWriter(store, 'car', cid)
    const fetching = fetchDag(
      cid,
      [fetcher],
      writer,
      { maxBytes: 1e9, maxBlocks: 10, concurrency: 1, blockTimeoutMs: 60_000 },
      {
        signal: signal(),
      },
    )

    await expect(fetching).rejects.toMatchObject({ failure: 'invalid_object' })
    await writer.abort(new Error('test over'))
  })
})
