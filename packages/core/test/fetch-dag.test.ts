import { CarBlockIterator } from '@ipld/car/iterator'
import * as dagCbor from '@ipld/dag-cbor'
import { CID } from 'multiformats/cid'
import { identity } from 'multiformats/hashes/identity'
import { sha256 } from 'multiformats/hashes/sha2'
import { describe, expect, it } from 'vitest'
import { createCarBlobWriter } from '../src/dag/car-blob.js'
import { DagFetchFailure, fetchDag } from '../src/dag/fetch-dag.js'
import { type BlockFetcher, PinfoldError } from '../src/index.js'
import { blobStore } from './support/blob-store.js'

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
      { maxBytes: distinctBytes, maxBlocks: blocks.size, concurrency: 4 },
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
    await fetchDag(root.cid, [fetcher], writer, { maxBytes: 1e6, maxBlocks: 10, concurrency: 2 }, { signal: signal() })
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
      { maxBytes: 1e9, maxBlocks: 100, concurrency: 8 },
      {
        signal: signal(),
      },
    )

    await expect(fetching).rejects.toBeInstanceOf(DagFetchFailure)
    await expect(fetching).rejects.toMatchObject({ failure: 'too_large' })
    expect(fetcher.calls).toEqual([root.cid.toString()])
    await writer.abort(new Error('test over'))
  })
})
