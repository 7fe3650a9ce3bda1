import * as dagPb from '@ipld/dag-pb'
import type { BlobStore, BlockRecordStore, CallOptions, ContentRecord } from '@pinfold/interface'
import { PinfoldError, throwIfAborted } from '@pinfold/interface'
import { UnixFS } from 'ipfs-unixfs'
import { CID } from 'multiformats/cid'
import { type Block, blockKey, blockLinks, isIdentity, RAW_CODE } from '../content/dag/blocks.js'
import { concat, readAll } from '../content/dag/car-blob.js'
import { readFileDagIndex } from '../content/dag/file-dag-index.js'
import { checkHash, readBlock, unixfsLeaf } from '../content/dag/read-block.js'
import { checkFileBlocks } from '../denylist/file-blocks.js'

/**
 * Read access to the part of a stored content's DAG below `root` (the content's own root, or any
 * block inside it): the gateway serves raw blocks, CARs and UnixFS paths through this alone.
 * Every block is found through the block index and checked against its multihash when read.
 */
export interface ContentDag {
  /** The block this view starts at. */
  readonly root: CID
  /** The content that holds every block below `root`. */
  readonly content: ContentRecord
  /** Whether `root` is the content's own root (a whole file can then be read straight from its blob). */
  readonly atContentRoot: boolean
  /** The bytes of a block of this content, or `undefined` when the content does not hold it. */
  getBlock(cid: CID, options?: CallOptions): Promise<Uint8Array | undefined>
  /**
   * Every block reachable from `root`, depth-first in link order, each exactly once: the order a
   * trustless gateway streams a CAR in. Memory use grows with the number of distinct blocks only.
   */
  blocks(options?: CallOptions): AsyncIterable<Block>
  /**
   * Refuses (`BLOCKED`) when a deny rule names the root or, for a whole file served straight from
   * its blob (whose blocks are otherwise never read one by one), any of its blocks: reads the
   * file's inner nodes (its sidecar). Does nothing when no deny check is set.
   */
  checkBlocks(options?: CallOptions): Promise<void>
}

export interface ContentDagStores {
  blobs: BlobStore
  records: Pick<BlockRecordStore, 'getBlockLocation'>
  /**
   * Keeps blocks read between requests (the gateway's read cache, which keeps the small ones: a
   * file's inner nodes, small leaves). Blocks are immutable and keyed by blob and multihash, so an
   * entry never goes stale; its bytes were checked when first read. This is what lets repeated
   * trustless range requests into a large file read only the leaf they need.
   */
  blockCache?: BlockCache | undefined
  /**
   * Throws `BLOCKED` for a block a deny rule refuses. Asked for every block handed out, before
   * the block cache: a cached block is checked against the lists as they are now.
   */
  deny?: ((cid: CID) => void) | undefined
}

export interface BlockCache {
  get(key: string): Uint8Array | undefined
  set(key: string, bytes: Uint8Array): void
}

export function openContentDag(content: ContentRecord, root: CID, stores: ContentDagStores): ContentDag {
  async function getBlock(cid: CID, options?: CallOptions): Promise<Uint8Array | undefined> {
    if (isIdentity(cid)) return cid.multihash.digest
    stores.deny?.(cid)
    const cacheKey = `${content.blobKey}\n${blockKey(cid)}`
    const cached = stores.blockCache?.get(cacheKey)
    if (cached) return cached
    const location = await stores.records.getBlockLocation(content.blobKey, cid.multihash.bytes, options)
    if (!location) return undefined
    const bytes = await readBlock(stores.blobs, content.blobKey, location, options)
    stores.blockCache?.set(cacheKey, bytes)
    return bytes
  }
  const atContentRoot = blockKey(root) === blockKey(CID.parse(content.cid))
  return {
    root,
    content,
    atContentRoot,
    getBlock,
    blocks: (options) =>
      content.kind === 'file' && atContentRoot
        ? checked(fileBlocks(content, root, stores.blobs, options))
        : walk(options),
    async checkBlocks(options) {
      const deny = stores.deny
      if (!deny) return
      // below any other root, blocks are read (and checked) one by one as they are served
      if (content.kind !== 'file' || !atContentRoot) deny(root)
      else await checkFileBlocks(deny, stores.blobs, content, root, options)
    },
  }

  /** The file's blocks cut from its blob, each checked against the deny lists before it is sent. */
  async function* checked(source: AsyncGenerator<Block>): AsyncGenerator<Block> {
    for await (const block of source) {
      stores.deny?.(block.cid)
      yield block
    }
  }

  async function* walk(options?: CallOptions): AsyncGenerator<Block> {
    // Each distinct block once: the walk's work is bounded by the DAG's distinct blocks and their links.
    const seen = new Set<string>()
    const stack: CID[] = [root]
    while (stack.length > 0) {
      throwIfAborted(options?.signal)
      const cid = stack.pop()!
      const id = blockKey(cid)
      if (isIdentity(cid) || seen.has(id)) continue
      seen.add(id)
      const bytes = await getBlock(cid, options)
      if (!bytes) throw new PinfoldError('INTERNAL', `block ${cid} of ${content.cid} is missing`)
      yield { cid, bytes }
      const links = blockLinks(cid, bytes)
      for (let i = links.length - 1; i >= 0; i--) if (!seen.has(blockKey(links[i]!))) stack.push(links[i]!)
    }
  }
}

/**
 * The whole DAG of a file content in one sequential pass over its blob: the inner nodes come from
 * the sidecar (one read), the leaves are cut from the blob stream in file order. Repeated subtrees
 * (a file of zeros) are sent once and skipped in the stream.
 */
async function* fileBlocks(
  content: ContentRecord,
  root: CID,
  blobs: BlobStore,
  options?: CallOptions,
): AsyncGenerator<Block> {
  const inner = new Map<string, Uint8Array>()
  for (const node of (await readFileDagIndex(blobs, content.blobKey, root, options)) ?? []) {
    await checkHash(node.cid.multihash.bytes, node.bytes)
    inner.set(blockKey(node.cid), node.bytes)
  }
  const rootBytes = inner.get(blockKey(root))
  if (!rootBytes) {
    // a single-block file: the root is the whole blob
    const data = await readAll(await blobs.get(content.blobKey, options))
    const bytes = root.code === RAW_CODE ? data : unixfsLeaf(data)
    await checkHash(root.multihash.bytes, bytes)
    yield { cid: root, bytes }
    return
  }
  yield { cid: root, bytes: rootBytes }
  const reader = sequentialReader(await blobs.get(content.blobKey, options))
  const seen = new Set<string>([blockKey(root)])
  async function* descend(bytes: Uint8Array): AsyncGenerator<Block> {
    const node = dagPb.decode(bytes)
    const sizes = node.Data ? UnixFS.unmarshal(node.Data).blockSizes.map(Number) : []
    if (sizes.length !== node.Links.length) throw new PinfoldError('INTERNAL', 'malformed UnixFS file node')
    for (let i = 0; i < node.Links.length; i++) {
      throwIfAborted(options?.signal)
      const child = node.Links[i]!.Hash
      const id = blockKey(child)
      if (seen.has(id)) {
        await reader.skip(sizes[i]!) // an identical subtree already sent (dups=n)
        continue
      }
      seen.add(id)
      const innerBytes = inner.get(id)
      if (innerBytes) {
        yield { cid: child, bytes: innerBytes }
        yield* descend(innerBytes)
        continue
      }
      const data = await reader.read(sizes[i]!)
      const leaf = child.code === RAW_CODE ? data : unixfsLeaf(data)
      await checkHash(child.multihash.bytes, leaf)
      yield { cid: child, bytes: leaf }
    }
  }
  try {
    yield* descend(rootBytes)
  } finally {
    await reader.close()
  }
}

/** Exact-size reads from a byte stream; holds at most one chunk beyond what was asked for. */
function sequentialReader(source: AsyncIterable<Uint8Array>) {
  const iterator = source[Symbol.asyncIterator]()
  let pending: Uint8Array = new Uint8Array(0)
  async function take(size: number, keep: boolean): Promise<Uint8Array> {
    const parts: Uint8Array[] = []
    let missing = size
    while (missing > 0) {
      if (pending.length === 0) {
        const next = await iterator.next()
        if (next.done) throw new PinfoldError('INTERNAL', 'the stored file ended early')
        pending = next.value
        continue
      }
      const part = pending.subarray(0, missing)
      pending = pending.subarray(part.length)
      missing -= part.length
      if (keep) parts.push(part)
    }
    return keep ? concat(parts) : new Uint8Array(0)
  }
  return {
    read: (size: number) => take(size, true),
    skip: async (size: number) => void (await take(size, false)),
    close: async () => void (await iterator.return?.()),
  }
}
