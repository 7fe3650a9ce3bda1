import { importer } from 'ipfs-unixfs-importer'
import type { CID } from 'multiformats/cid'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { isInnerNode } from '../../src/content/dag/file-dag-index.js'
import { BLOB_FEED_AHEAD_BYTES, type LeafHashing, storeFileOnePass } from '../../src/content/unixfs/one-pass-file.js'
import { kuboImporterOptions, LEAF_BYTES } from '../../src/content/unixfs/profiles.js'
import { POOL_HASH_AHEAD_BYTES } from '../../src/content/unixfs/thread-pool-leaf-hasher.js'
import type { BlobStore } from '../../src/index.js'
import { MIN_CHUNK_WEIGHT, PinfoldError } from '../../src/index.js'
import { blobStore } from '../support/blob-store.js'
import { delayedDigests } from '../support/delayed-digests.js'
import { chacha, pieces, stream } from '../support/pseudo-random-bytes.js'

const LEAF = LEAF_BYTES.v1
const HASHINGS: readonly LeafHashing[] = ['main-thread', 'thread-pool']

/** The stock importer with Kubo's CIDv1 settings (its chunker assembles every leaf), and the inner nodes it stores. */
async function stock(bytes: Uint8Array): Promise<{ cid: CID; inner: string[] }> {
  const inner: string[] = []
  const blockstore = {
    put: async (cid: CID, block: Uint8Array) => {
      if (isInnerNode({ cid, bytes: block })) inner.push(`${cid}:${Buffer.from(block).toString('hex')}`)
      return cid
    },
  }
  let cid: CID | undefined
  for await (const entry of importer([{ content: [bytes] }], blockstore, kuboImporterOptions('v1'))) cid = entry.cid
  return { cid: cid!, inner }
}

const run = (
  store: BlobStore,
  content: AsyncIterable<Uint8Array>,
  maxBytes = Number.POSITIVE_INFINITY,
  hashing: LeafHashing = 'main-thread',
) => storeFileOnePass(store, 'blob', content, { maxBytes, controller: new AbortController(), hashing })

describe('storeFileOnePass', () => {
  // 0 and 1 byte; either side of one leaf; 174 leaves, one full node; 175 and a bit, a second
  // level of the balanced layout (174 links per node; deeper levels: balanced-dag.test.ts)
  const sizes = [0, 1, LEAF - 1, LEAF, LEAF + 1, 174 * LEAF, 175 * LEAF + 12_345]
  for (const [size, hashing] of sizes.flatMap((size) => HASHINGS.map((hashing) => [size, hashing] as const))) {
    it(`${size} bytes in random pieces, hashed on the ${hashing}: the stock importer's CID and inner nodes, the bytes stored as sent`, async () => {
      const bytes = chacha(`one-pass/${size}`, size)
      const expected = await stock(bytes)
      const { store, blobs } = blobStore()
      const chunks = pieces(bytes, `one-pass/${size}`, size > 2 * LEAF ? 3 * LEAF : 70_000)
      const file = await run(store, stream(chunks), Number.POSITIVE_INFINITY, hashing)
      expect(file.cid.toString()).toBe(expected.cid.toString())
      expect(file.innerNodes.map(({ cid, bytes }) => `${cid}:${Buffer.from(bytes).toString('hex')}`)).toEqual(
        expected.inner,
      )
      expect(file.size).toBe(size)
      expect(Buffer.from(file.head).equals(Buffer.from(bytes.subarray(0, 4100)))).toBe(true)
      expect(Buffer.from(blobs.get('blob')!).equals(Buffer.from(bytes))).toBe(true)
    }, 120_000)
  }

  it('a file over the limit fails with PAYLOAD_TOO_LARGE before its excess reaches the store, which keeps nothing', async () => {
    const { store, blobs } = blobStore()
    let stored = 0
    const counting: BlobStore = {
      ...store,
      async put(key, source) {
        return store.put(
          key,
          (async function* () {
            for await (const chunk of source) {
              stored += chunk.length
              yield chunk
            }
          })(),
        )
      },
    }
    const bytes = chacha('limit', 10 * 65_536)
    await expect(run(counting, stream(pieces(bytes, 'limit', 65_536)), 5 * 65_536)).rejects.toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
    })
    expect(stored).toBeLessThanOrEqual(5 * 65_536)
    expect(blobs.size).toBe(0)
  })

  it('a store that fails ends the upload at once with its error, without waiting for the rest of the body', async () => {
    const failing: BlobStore = {
      ...blobStore().store,
      async put(_key, source) {
        for await (const _chunk of source) throw new PinfoldError('UNAVAILABLE', 'disk full')
        return { size: 0 }
      },
    }
    // one chunk, then a body that never sends another byte
    const stalled = (async function* () {
      yield new Uint8Array(1000)
      await new Promise(() => {})
    })()
    await expect(run(failing, stalled)).rejects.toMatchObject({ code: 'UNAVAILABLE', message: 'disk full' })
  })

  it('a slow store holds the body back: no more than the feed-ahead is read past what it took', async () => {
    const chunk = 65_536
    let read = 0
    let lead = 0
    const body = (async function* () {
      for (let i = 0; i < 200; i++) {
        read += chunk
        yield new Uint8Array(chunk)
      }
    })()
    const slow: BlobStore = {
      ...blobStore().store,
      async put(_key, source) {
        let taken = 0
        for await (const part of source) {
          taken += part.length
          lead = Math.max(lead, read - taken)
          await new Promise((resolve) => setTimeout(resolve, 1))
        }
        return { size: taken }
      },
    }
    const file = await run(slow, body)
    expect(file.size).toBe(200 * chunk)
    expect(lead).toBeGreaterThan(0)
    expect(lead).toBeLessThanOrEqual(BLOB_FEED_AHEAD_BYTES + chunk)
  })

  it('a body of 1-byte chunks while the store stalls: the read-ahead is bounded in chunks too, not only in bytes', async () => {
    let read = 0
    const body = (async function* () {
      for (;;) {
        read++
        yield new Uint8Array(1)
      }
    })()
    let release!: () => void
    const released = new Promise<void>((resolve) => {
      release = resolve
    })
    const stalled: BlobStore = {
      ...blobStore().store,
      async put(_key, source) {
        await released
        for await (const _chunk of source) break
        return { size: 0 }
      },
    }
    const controller = new AbortController()
    const upload = storeFileOnePass(stalled, 'blob', body, { maxBytes: Number.POSITIVE_INFINITY, controller })
    // let the body run until reading it waits for the store
    for (let before = -1; read !== before; ) {
      before = read
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    // a byte bound alone let 2,097,153 of them (500 MB of heap) wait here
    expect(read).toBeLessThanOrEqual(BLOB_FEED_AHEAD_BYTES / MIN_CHUNK_WEIGHT + 1)
    controller.abort(new PinfoldError('ABORTED', 'the test is over'))
    release()
    await expect(upload).rejects.toMatchObject({ code: 'ABORTED' })
  })

  it('an abort stops the upload while the body waits, and the store sees it', async () => {
    const controller = new AbortController()
    let storeError: unknown
    const { store } = blobStore()
    const watching: BlobStore = {
      ...store,
      put: (key, source, options) =>
        store.put(key, source, options).catch((error: unknown) => {
          storeError = error
          throw error
        }),
    }
    const stalled = (async function* () {
      yield new Uint8Array(1000)
      await new Promise(() => {})
    })()
    const upload = storeFileOnePass(watching, 'blob', stalled, { maxBytes: Infinity, controller })
    setTimeout(() => controller.abort(new PinfoldError('ABORTED', 'the client went away')), 20)
    await expect(upload).rejects.toMatchObject({ code: 'ABORTED' })
    expect(storeError).toBeDefined()
  })

  describe('hashed on the thread pool', () => {
    afterEach(() => {
      vi.restoreAllMocks()
    })

    /** `leaves` full leaves in 64 KiB chunks, then a body that never sends another byte. */
    const stallingAfter = (leaves: number) =>
      (async function* () {
        yield* pieces(chacha('pool-stall', leaves * LEAF), 'pool-stall', 65_536)
        await new Promise(() => {})
      })()

    it('an abort while digests are in flight rejects once they have settled, and the store keeps nothing', async () => {
      const seen = delayedDigests(() => 30)
      const { store, blobs } = blobStore()
      const controller = new AbortController()
      const upload = storeFileOnePass(store, 'blob', stallingAfter(6), {
        maxBytes: Number.POSITIVE_INFINITY,
        controller,
        hashing: 'thread-pool',
      })
      setTimeout(() => controller.abort(new PinfoldError('ABORTED', 'the client went away')), 10)
      await expect(upload).rejects.toMatchObject({ code: 'ABORTED' })
      expect(seen.started).toBe(6)
      expect(seen.settled).toBe(6)
      expect(blobs.size).toBe(0)
    })

    it('a digest that fails fails the upload with its error, and the store keeps nothing', async () => {
      const seen = delayedDigests(
        () => 1,
        (n) => n === 1,
      )
      const { store, blobs } = blobStore()
      const bytes = chacha('pool-failure', 40 * LEAF)
      await expect(run(store, stream(pieces(bytes, 'pool-failure', 65_536)), Infinity, 'thread-pool')).rejects.toThrow(
        'digest 1 failed',
      )
      expect(seen.settled).toBe(seen.started)
      expect(blobs.size).toBe(0)
    })

    it('a pool that lags holds the body back: no more leaves in flight than the bound, one past it at most', async () => {
      const seen = delayedDigests(() => 2)
      const { store } = blobStore()
      const bytes = chacha('pool-lag', 48 * LEAF)
      const file = await run(store, stream(pieces(bytes, 'pool-lag', 65_536)), Infinity, 'thread-pool')
      expect(file.cid.toString()).toBe((await stock(bytes)).cid.toString())
      expect(seen.mostInFlight).toBe(POOL_HASH_AHEAD_BYTES / LEAF + 1)
    })
  })
})
