import { createHash } from 'node:crypto'
import * as dagPb from '@ipld/dag-pb'
import { UnixFS } from 'ipfs-unixfs'
import { importer } from 'ipfs-unixfs-importer'
import { CID } from 'multiformats/cid'
import * as raw from 'multiformats/codecs/raw'
import { PinfoldError, throwIfAborted } from '../errors.js'
import type { ContentRecord } from '../model.js'
import type { BlobStore, CallOptions } from '../ports.js'
import { kuboImporterOptions } from '../unixfs/profiles.js'
import { concat, readAll } from './car-blob.js'
import type { ContentDag } from './content-dag.js'
import { readFileDagIndex } from './file-dag-index.js'

/**
 * The DAG of a `file` content, served from the file's raw bytes and its inner nodes.
 *
 * The blob holds only the file's bytes; the DAG's inner nodes (dag-pb nodes with links: about
 * 0.02 % of the file with 256 KiB chunks) are stored beside it by the upload (`file-dag-index.ts`).
 * For a file stored without them (or under another CID profile), they are rebuilt once by
 * re-importing the blob with the recorded profile. Leaves are never kept: a leaf is a contiguous
 * slice of the file (raw leaves, or for CIDv0 a UnixFS `file` node wrapping the slice), found by the
 * byte offsets the inner nodes' `blockSizes` give, and re-hashed against its CID whenever it is rebuilt.
 */
interface FileDagIndex {
  root: CID
  rootBytes: Uint8Array
  /** Inner nodes by CID string. */
  nodes: Map<string, Uint8Array>
  /** Leaf CID string → position in the file; built on the first leaf lookup. */
  leaves?: Map<string, { offset: number; size: number }>
}

/** Indexes by blob key; small, since one index is a few KiB per GiB of file. */
const INDEX_CACHE_ENTRIES = 32
const indexCache = new Map<string, Promise<FileDagIndex>>()

export interface FileDagOptions {
  /** Reuse indexes across calls (default true). Contents are immutable, so the cache never goes stale. */
  cache?: boolean
}

export function openFileDag(content: ContentRecord, blobs: BlobStore, options: FileDagOptions = {}): ContentDag {
  if (content.kind !== 'file' || content.profile === null) {
    throw new PinfoldError('INTERNAL', `content ${content.cid} is not a file content`)
  }
  const root = CID.parse(content.cid)
  const index = (callOptions?: CallOptions) => loadIndex(content, blobs, options.cache !== false, callOptions)

  return {
    root,

    async getBlock(cid, callOptions) {
      const idx = await index(callOptions)
      if (cid.equals(idx.root)) return idx.rootBytes
      const node = idx.nodes.get(cid.toString())
      if (node) return node
      idx.leaves ??= leafPositions(idx)
      const at = idx.leaves.get(cid.toString())
      if (!at) return undefined
      const data = await readAll(
        await blobs.get(content.blobKey, {
          signal: callOptions?.signal,
          range: { offset: at.offset, length: at.size },
        }),
      )
      return leafBlock(cid, data)
    },

    async *blocks(callOptions) {
      const idx = await index(callOptions)
      yield { cid: idx.root, bytes: idx.rootBytes }
      if (!idx.nodes.has(idx.root.toString())) return // a single-block file
      const reader = sequentialReader(await blobs.get(content.blobKey, { signal: callOptions?.signal }))
      const seen = new Set<string>([idx.root.toString()])
      // Depth-first in link order; leaves therefore come in file order, read from one blob stream.
      async function* walk(bytes: Uint8Array): AsyncGenerator<{ cid: CID; bytes: Uint8Array }> {
        const { links, sizes } = fileNode(bytes)
        for (let i = 0; i < links.length; i++) {
          throwIfAborted(callOptions?.signal)
          const child = links[i]!
          const key = child.toString()
          if (seen.has(key)) {
            await reader.skip(sizes[i]!) // an identical subtree already sent (dups=n)
            continue
          }
          seen.add(key)
          const inner = idx.nodes.get(key)
          if (inner) {
            yield { cid: child, bytes: inner }
            yield* walk(inner)
          } else {
            yield { cid: child, bytes: leafBlock(child, await reader.read(sizes[i]!)) }
          }
        }
      }
      try {
        yield* walk(idx.rootBytes)
      } finally {
        await reader.close()
      }
    },
  }
}

function loadIndex(
  content: ContentRecord,
  blobs: BlobStore,
  useCache: boolean,
  options: CallOptions | undefined,
): Promise<FileDagIndex> {
  if (!useCache) return buildIndex(content, blobs, options)
  const key = `${content.blobKey}\n${content.cid}`
  let pending = indexCache.get(key)
  if (pending) {
    indexCache.delete(key) // re-insert: most recently used last
    indexCache.set(key, pending)
    return pending
  }
  // Built without the caller's signal: the shared result must not fail because one caller left.
  pending = buildIndex(content, blobs, undefined)
  pending.catch(() => indexCache.delete(key))
  indexCache.set(key, pending)
  while (indexCache.size > INDEX_CACHE_ENTRIES) indexCache.delete(indexCache.keys().next().value!)
  throwIfAborted(options?.signal)
  return pending
}

async function buildIndex(
  content: ContentRecord,
  blobs: BlobStore,
  options: CallOptions | undefined,
): Promise<FileDagIndex> {
  const expected = CID.parse(content.cid)
  const stored = await readFileDagIndex(blobs, content.blobKey, expected, options)
  if (stored) return { root: expected, ...stored }
  return reimport(content, expected, blobs, options)
}

/** Rebuilds the inner nodes by importing the whole blob again: files stored without a DAG index. */
async function reimport(content: ContentRecord, expected: CID, blobs: BlobStore, options: CallOptions | undefined) {
  const nodes = new Map<string, Uint8Array>()
  let rootBytes: Uint8Array | undefined
  const capture = {
    async put(cid: CID, bytes: Uint8Array) {
      if (cid.equals(expected)) rootBytes = bytes
      if (cid.code === dagPb.code && dagPb.decode(bytes).Links.length > 0) nodes.set(cid.toString(), bytes)
      return cid
    },
  }
  const source = await blobs.get(content.blobKey, { signal: options?.signal })
  let root: CID | undefined
  for await (const entry of importer([{ content: source }], capture, kuboImporterOptions(content.profile!))) {
    root = entry.cid
  }
  if (!root?.equals(expected) || !rootBytes) {
    throw new PinfoldError('INTERNAL', `the stored bytes of ${content.cid} no longer produce that CID`)
  }
  return { root, rootBytes, nodes }
}

/** Links and per-child file sizes of a UnixFS file node. */
function fileNode(bytes: Uint8Array): { links: CID[]; sizes: number[] } {
  const node = dagPb.decode(bytes)
  const unixfs = node.Data ? UnixFS.unmarshal(node.Data) : undefined
  const sizes = unixfs?.blockSizes.map(Number) ?? []
  if (sizes.length !== node.Links.length) throw new PinfoldError('INTERNAL', 'malformed UnixFS file node')
  return { links: node.Links.map((link) => link.Hash), sizes }
}

function leafPositions(idx: FileDagIndex): Map<string, { offset: number; size: number }> {
  const leaves = new Map<string, { offset: number; size: number }>()
  let offset = 0
  const walk = (bytes: Uint8Array) => {
    const { links, sizes } = fileNode(bytes)
    for (let i = 0; i < links.length; i++) {
      const inner = idx.nodes.get(links[i]!.toString())
      if (inner) walk(inner)
      else if (!leaves.has(links[i]!.toString())) leaves.set(links[i]!.toString(), { offset, size: sizes[i]! })
      if (!inner) offset += sizes[i]!
    }
  }
  if (idx.nodes.has(idx.root.toString())) walk(idx.rootBytes)
  return leaves
}

const SHA2_256 = 0x12

/** Rebuilds a leaf block from its slice of the file and checks it against its CID. */
function leafBlock(cid: CID, data: Uint8Array): Uint8Array {
  const bytes =
    cid.code === raw.code ? data : dagPb.encode({ Data: new UnixFS({ type: 'file', data }).marshal(), Links: [] })
  const digest = createHash('sha256').update(bytes).digest()
  if (cid.multihash.code !== SHA2_256 || !equalBytes(digest, cid.multihash.digest)) {
    throw new PinfoldError('INTERNAL', `stored bytes do not hash to block ${cid}`)
  }
  return bytes
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
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
