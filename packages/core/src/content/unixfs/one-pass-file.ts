import type { BlobStore } from '@pinfold/interface'
import { abortable, chunkWeight, PinfoldError } from '@pinfold/interface'
import type { CID } from 'multiformats/cid'
import { SNIFF_BYTES } from '../../mime/mime.js'
import { PushQueue } from '../../streams/push-queue.js'
import type { Block } from '../dag/blocks.js'
import { BalancedDagFrontier } from './balanced-dag.js'
import { checkFileNode } from './file-node-check.js'
import { LEAF_BYTES } from './profiles.js'
import { type RawLeaf, RawLeafHasher } from './raw-leaf-hasher.js'
import { ThreadPoolLeafHasher } from './thread-pool-leaf-hasher.js'

/**
 * Bytes the blob store may lag behind the request before reading the request waits for it (the
 * filesystem store's own writer gathers up to 4 MiB more into its next `writev`). Chunks are
 * weighed by {@link chunkWeight}, so tiny ones cannot pile up by the million.
 */
export const BLOB_FEED_AHEAD_BYTES = 2 * 1024 * 1024

/**
 * Where an upload's leaves are hashed: on the main thread as the chunks pass ({@link RawLeafHasher}),
 * or on libuv's thread pool ({@link ThreadPoolLeafHasher}), which frees the main thread at the cost
 * of a copy of each leaf and pays only where a core is free for the pool.
 */
export type LeafHashing = 'main-thread' | 'thread-pool'

export interface OnePassFile {
  size: number
  /** Its first {@link SNIFF_BYTES} bytes, for type sniffing. */
  head: Uint8Array
  cid: CID
  /** Its CIDv1 DAG's inner nodes. */
  innerNodes: Block[]
}

/**
 * Streams one file into a new blob at `blobKey` and computes its CIDv1 DAG (Kubo's settings) from
 * the same bytes in one pass, with one wait per chunk (for the chunk itself): each chunk is
 * counted (over `maxBytes` it fails with PAYLOAD_TOO_LARGE before it is stored), its first bytes
 * are kept for type sniffing, its raw leaves hashed and the DAG above them extended as each leaf
 * completes ({@link BalancedDagFrontier}), and it is queued for the blob store, all synchronously.
 * The store writes at its own pace; reading the request waits only while the store lags by more
 * than {@link BLOB_FEED_AHEAD_BYTES}. (Each 64 KiB chunk used to pass through about ten async
 * steps — a meter, a fork into two branches, the importer's chunk pipeline — whose promises made
 * GC 16–20 % of an upload's CPU time, and the importer spent 30–100 µs on each 256 KiB leaf.)
 *
 * With `hashing: 'thread-pool'` the leaves are hashed off the main thread and reach the DAG a little
 * later, in order; reading the request then also waits while more than `POOL_HASH_AHEAD_BYTES` of
 * leaves await their digests.
 *
 * `controller` is aborted on any failure, so the store stops at once; a failure of the store
 * stops reading the request at once too. The store, and any hashing on the thread pool, have
 * settled when this rejects (the store has removed its partial write).
 */
export async function storeFileOnePass(
  blobs: BlobStore,
  blobKey: string,
  content: AsyncIterable<Uint8Array>,
  {
    maxBytes,
    controller,
    hashing = 'main-thread',
  }: { maxBytes: number; controller: AbortController; hashing?: LeafHashing | undefined },
): Promise<OnePassFile> {
  const toBlob = new PushQueue<Uint8Array>(chunkWeight)
  const dag = BalancedDagFrontier.empty()
  const innerNodes: Block[] = []
  const keep = (nodes: Block[]) => {
    for (const node of nodes) {
      checkFileNode(node.cid, node.bytes) // a malformed node would give a CID `ipfs add` never gives
      innerNodes.push(node)
    }
  }
  const onLeaf = (leaf: RawLeaf) => keep(dag.addLeaf(leaf.digest, leaf.size))
  const pooled = hashing === 'thread-pool' ? new ThreadPoolLeafHasher(LEAF_BYTES.v1, onLeaf) : undefined
  const hasher = pooled ?? new RawLeafHasher(LEAF_BYTES.v1, onLeaf)
  let storeFailure: { error: unknown } | undefined
  const stored = blobs.put(blobKey, toBlob, { signal: controller.signal })
  stored.catch((error: unknown) => {
    storeFailure ??= { error }
    controller.abort(error)
  })
  let size = 0
  let head: Uint8Array = new Uint8Array(0)
  try {
    for await (const chunk of abortable(content, controller.signal)) {
      size += chunk.length
      if (size > maxBytes) throw new PinfoldError('PAYLOAD_TOO_LARGE', `upload exceeds the limit of ${maxBytes} bytes`)
      if (head.length < SNIFF_BYTES) head = withHead(head, chunk)
      hasher.update(chunk)
      toBlob.push(chunk)
      // reading waits while the store, or the thread pool's hashing, lags too far behind
      const storeLags = toBlob.queuedWeight > BLOB_FEED_AHEAD_BYTES
      if (storeLags || pooled?.behind)
        await Promise.all([storeLags && toBlob.drain(BLOB_FEED_AHEAD_BYTES / 2), pooled?.behind && pooled.caughtUp()])
    }
    hasher.finish()
    await pooled?.delivered()
    const { root, nodes } = dag.close()
    keep(nodes)
    toBlob.end()
    await stored
    return { size, head, cid: root, innerNodes }
  } catch (error) {
    // what stopped the loop: the store's own failure (the loop then saw the abort), else the loop's
    const cause = storeFailure ? storeFailure.error : error
    toBlob.fail(cause)
    controller.abort(cause)
    await Promise.all([stored.catch(() => {}), pooled?.abandon()])
    throw cause
  }
}

function withHead(head: Uint8Array, chunk: Uint8Array): Uint8Array {
  const longer = new Uint8Array(Math.min(SNIFF_BYTES, head.length + chunk.length))
  longer.set(head)
  longer.set(chunk.subarray(0, longer.length - head.length), head.length)
  return longer
}
