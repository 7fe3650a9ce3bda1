import type { CallOptions } from '../call-options.js'
import type { ContentRecord, FileRecord, Network } from '../model.js'

/** Where a page of `listRootHolders` starts: strictly after this file (the last of the page before). */
export interface RootHolderPageOptions extends CallOptions {
  after?: Pick<FileRecord, 'tenantId' | 'createdAt' | 'id'> | undefined
}

/**
 * The block index: for every block of every stored content, where its bytes are. A block is named
 * by its multihash alone — a CIDv0 and a CIDv1 (any codec) of the same bytes are the same block —
 * so the gateway can serve any block of public content, not only the roots of uploads.
 */

/**
 * Where a block's bytes lie, relative to its content's blob (`ContentRecord.blobKey`):
 * - `blob`: bytes `[offset, offset + length)` of the blob itself (a raw leaf of a file, any block
 *   of a stored CAR);
 * - `sidecar`: the same range of the content's `.idx` sidecar (a file's inner DAG nodes);
 * - `unixfs-leaf`: a UnixFS `file` leaf node (CIDv0 layouts) wrapped around that range of the blob.
 */
export const BLOCK_SOURCES = ['blob', 'sidecar', 'unixfs-leaf'] as const
export type BlockSource = (typeof BLOCK_SOURCES)[number]

export interface BlockLocation {
  /** The block's multihash, in its binary multihash encoding. */
  multihash: Uint8Array
  /** The multicodec the content's DAG links to the block with (raw, dag-pb, dag-cbor). */
  codec: number
  source: BlockSource
  offset: number
  length: number
  /** True for the root block of its content; lookups prefer these (a whole file is read straight from its blob). */
  isRoot: boolean
}

export interface LocatedBlock {
  content: ContentRecord
  location: BlockLocation
  /**
   * When this answer lapses by expiry alone: the latest `expiresAt` among the public files (of the
   * tenant, when asked for one) that make `content` servable; `null` when one of them never
   * expires. A cache may keep the answer until then (and until a file is deleted or its expiry
   * changes); `undefined` from an adapter that does not say, which makes callers ask again.
   */
  until?: Date | null | undefined
}

export interface BlockRecordStore {
  /**
   * Records where blocks of the blob `blobKey` lie. All or nothing; recording a block again for
   * the same blob keeps one entry. Entries count only while a content record owns `blobKey`:
   * uploads record their blocks before their content record commits, and entries of a blob that
   * never gets a content record are invisible until {@link deleteBlockLocations} or the orphan
   * sweep removes them. Entries leave with the content record that owns their blob (`deleteFile`
   * removes them in the same atomic step that releases the content).
   */
  putBlockLocations(blobKey: string, locations: readonly BlockLocation[], options?: CallOptions): Promise<void>

  /**
   * A block with this multihash inside content that some file on the `public` network references —
   * of `tenantId` only, when given, and of no tenant in `excludeTenants` (those whose content an
   * operator hid) — and that has not expired at `at` (`expiresAt > at` or none).
   * Root entries win over inner ones; otherwise which holder answers is unspecified (every holder
   * has the same bytes). `undefined` when no such content holds the block: a block reachable only
   * from private content is never found here.
   */
  findPublicBlock(
    multihash: Uint8Array,
    scope: { at: Date; tenantId?: string | undefined; excludeTenants?: readonly string[] | undefined },
    options?: CallOptions,
  ): Promise<LocatedBlock | undefined>

  /**
   * The tenant's oldest file on `network`, not expired at `at`, whose content has this block as its
   * root: how a CID in a request finds the tenant's file whatever its spelling (CIDv0 or v1, any
   * multibase, any codec over the same multihash). `undefined` when the tenant holds no such file.
   */
  findHeldFile(
    tenantId: string,
    network: Network,
    multihash: Uint8Array,
    at: Date,
    options?: CallOptions,
  ): Promise<FileRecord | undefined>

  /**
   * Files of every tenant, on either network, whose content has this block as its root, by
   * `(tenantId, createdAt, id)`, at most `limit`, strictly after `options.after` in that order: who
   * holds a CID (whatever its spelling), read a page at a time, so a deny rule can be reported to
   * the tenants whose content it blocks however many hold it.
   */
  listRootHolders(multihash: Uint8Array, limit: number, options?: RootHolderPageOptions): Promise<FileRecord[]>

  /**
   * Up to `limit` CIDs of contents that at least one file of any tenant references (either network,
   * expired or not), in `cid` order strictly after `after`: every root the service holds, read in
   * bounded pages by the deny lists' background scan (a rule added now may block content stored
   * long ago, and a double-hashed rule can only be matched by hashing each root).
   */
  listHeldRoots(after: string | undefined, limit: number, options?: CallOptions): Promise<string[]>

  /** The entry of a block inside one blob, whether or not a content record owns it yet. */
  getBlockLocation(blobKey: string, multihash: Uint8Array, options?: CallOptions): Promise<BlockLocation | undefined>

  /**
   * Up to `limit` content records whose blob has no block entry at all, in `cid` order strictly
   * after `after`: the work list of the backfill for contents stored before the index existed.
   */
  listUnindexedContents(after: string | undefined, limit: number, options?: CallOptions): Promise<ContentRecord[]>

  /**
   * Up to `limit` CIDs of contents that some file on the `public` network references and that has not
   * expired at `at`, in `cid` order strictly after `after`: the roots a node announces to the IPFS
   * network (a content held only privately, or only by expired files, is never listed). Files of
   * tenants in `options.excludeTenants` (those whose content an operator hid) do not count: a root
   * only they hold publicly is not listed, one another tenant holds publicly too still is.
   */
  listPublicRoots(
    after: string | undefined,
    limit: number,
    at: Date,
    options?: CallOptions & { excludeTenants?: readonly string[] | undefined },
  ): Promise<string[]>

  /** Removes every entry of a blob (a redundant or orphaned upload's). Idempotent. */
  deleteBlockLocations(blobKey: string, options?: CallOptions): Promise<void>
}
