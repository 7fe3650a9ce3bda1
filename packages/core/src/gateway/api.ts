/** `FileService.gateway`: the contract (its operations are in `gateway.ts`). */

import type { ByteRange, CallOptions, FileRecord } from '@pinfold/interface'
import type { CID } from 'multiformats/cid'
import type { Block } from '../content/dag/blocks.js'
import type { DagScope, EntityBytes } from './car-stream.js'
import type { ContentDag } from './content-dag.js'

/**
 * Who a gateway request reads for:
 * - `public`: the shared `/ipfs/` gateway — any block of content some tenant holds publicly.
 * - `tenant`: a tenant's own gateway (a verified custom domain) — only that tenant's public
 *   content, with that tenant's hot swaps applied.
 */
export type GatewayScope = { kind: 'public' } | { kind: 'tenant'; tenantId: string }

/** The content a gateway request names, after swaps. */
export interface GatewayRoot {
  /** The CID in the request. */
  requested: CID
  /** The CID whose content is served: `requested`, or where the tenant's swaps lead. */
  cid: CID
  swapped: boolean
  /** The DAG below `cid`, inside the content that holds it; `null` only for identity CIDs. */
  dag: ContentDag | null
  /**
   * Until when this resolution holds by itself (the latest expiry of the public files serving the
   * content), `null` for ever, `undefined` when not known (swapped roots, stores that do not say):
   * the longest an answer built on it may be kept (the gateway's answer cache).
   */
  until?: Date | null | undefined
}

export interface DirectoryItem {
  name: string
  cid: CID
  /** Cumulative size of the entry's DAG, as the directory's link records it. */
  size: number
}

/** The CID of the root, then of each path segment on the way to what a request names (`X-Ipfs-Roots`). */
export interface PathRoots {
  roots: CID[]
}

export type GatewayEntry = PathRoots &
  (
    | {
        type: 'file'
        cid: CID
        size: number
        /** A UnixFS symlink: its bytes are the target path it names, never followed. */
        symlink?: true
        /** The file's bytes, or a range of them; reads only the blocks (or blob bytes) needed. */
        read(range?: ByteRange, options?: CallOptions): Promise<AsyncIterable<Uint8Array>>
      }
    | { type: 'directory'; cid: CID; list(options?: CallOptions): AsyncIterable<DirectoryItem> }
  )

export interface GatewayResolveOptions extends CallOptions {
  /** Apply the tenant's hot swaps (only in a `tenant` scope); default `false`. */
  swaps?: boolean | undefined
}

export interface GatewayCarOptions extends CallOptions {
  /** `dag-scope`; default `all`. */
  scope?: DagScope | undefined
  /** `entity-bytes=from:to`: negative positions count from the end, `*` is the last byte. */
  entityBytes?: { from: number; to: number | '*' } | undefined
  /** Send a block every time the walk meets it (`dups=y`), not once. */
  dups?: boolean | undefined
}

export interface GatewayCar extends PathRoots {
  /** The CID the path ends at. */
  terminal: CID
  /** The scope applied: an `entityBytes` range narrows `all` to `entity`, or to `block` when it misses the file. */
  scope: DagScope
  /** The entity bytes sent, resolved against the file's size; `undefined` for the whole entity. */
  range: EntityBytes | undefined
  /**
   * The CARv1 bytes; blocks are read as the stream is consumed, within the request's work budget.
   * `return()` stops it without reading on (an answer without a body).
   */
  stream: AsyncGenerator<Uint8Array>
}

export interface GatewayOperations {
  /**
   * The content a gateway request for `cid` serves: any block of public content (a root, an inner
   * node, a leaf), found by its multihash. On a tenant's gateway, with `swaps`, that tenant's hot
   * swaps apply (a swap whose target is no longer served falls back to the CID itself); the shared
   * gateway never swaps. `INVALID_INPUT`: not a CID. `NOT_FOUND` when the scope may not read it: a
   * block held only privately, or only by files past their `expiresAt`, is never served here.
   * `CONFLICT`: a swap chain longer than 64 hops.
   */
  resolve(scope: GatewayScope, cid: string, options?: GatewayResolveOptions): Promise<GatewayRoot>

  /**
   * The root for a file the caller already proved it may read (a download link's file, on any
   * network): no public check, no swaps. `NOT_FOUND` when its content is gone.
   */
  resolveHeld(file: FileRecord, options?: CallOptions): Promise<GatewayRoot>

  /**
   * A stamp of what public answers depend on besides the immutable content: the invalidations
   * of the read cache's facts (local and announced by other instances), the deny lists, and the
   * hidden tenants; with the clock's time. An answer kept beyond its request (the HTTP layer's
   * answer cache) is served again only while the stamp is the same and the time before its root's
   * `until`. `undefined` when part of it is not known in memory now (the hidden tenants are due
   * to be read again): the next answer then takes the full path, which reads it. Reads nothing
   * (the options are the service's convention only).
   */
  answerStamp(options?: CallOptions): { stamp: string; now: number } | undefined

  /**
   * The UnixFS entry at `path` below the root, for deserialized responses. A whole `file` content is
   * read straight from its blob (a range is one ranged read); everything else block by block through
   * the DAG, within the request's work budget. `NOT_FOUND`: no such path or block. `UNPROCESSABLE`:
   * the content is not UnixFS, or walking it exceeds the work budget.
   */
  entry(root: GatewayRoot, path: readonly string[], options?: CallOptions): Promise<GatewayEntry>

  /** The terminal block of a path (`?format=raw`). `NOT_FOUND`, `UNPROCESSABLE` as for {@link entry}. */
  block(root: GatewayRoot, path: readonly string[], options?: CallOptions): Promise<Block & PathRoots>

  /**
   * A CARv1 for the path (`?format=car`): the blocks along the path, then the terminal's scoped
   * blocks, depth-first, each once (or, with `dups`, every time the walk meets it). The path is
   * resolved before the stream is returned, so an unknown path is a `NOT_FOUND` rather than a broken
   * stream; `UNPROCESSABLE` as for {@link entry}.
   */
  car(root: GatewayRoot, path: readonly string[], options?: GatewayCarOptions): Promise<GatewayCar>

  /**
   * One block of public content by its CID (any spelling of the multihash), checked against its
   * multihash, for IPFS peers asking over bitswap: what `?format=raw` serves on the shared gateway,
   * without a request around it. `undefined` when no unexpired public content holds the block: a
   * block held only privately, only by expired files, or not at all is never returned.
   * `INVALID_INPUT`: not a CID.
   */
  publicBlock(cid: string, options?: CallOptions): Promise<Uint8Array | undefined>

  /**
   * The CID of every content some unexpired public file references, each once, in CID order, read
   * page by page as the caller iterates: what an IPFS node announces on the DHT. Private-only and
   * expired contents are never listed, nor contents only hidden tenants (suspended with their
   * content hidden) hold publicly: their provider records lapse.
   */
  publicRoots(options?: CallOptions): AsyncIterable<string>
}

export interface GatewayTar extends PathRoots {
  /** The CID the path ends at: the archive's top-level name. */
  terminal: CID
  /**
   * The tar bytes (ustar, with PAX headers for long or non-ASCII names), read block by block as
   * the stream is consumed, within the request's work budget; `return()` stops it.
   */
  stream: AsyncGenerator<Uint8Array>
}

/** `FileService.gateway.tar` (in `tar.ts`, built on {@link GatewayOperations.entry}). */
export interface GatewayTarOperation {
  /**
   * `?format=tar`: the UnixFS file, symlink or directory tree at `path` as a tar stream whose
   * members are named `{cid}/…`. Names are checked before the stream is returned: a link name
   * whose `..` leads outside the archive's root is `INVALID_INPUT`. `NOT_FOUND`, `UNPROCESSABLE`
   * as for {@link GatewayOperations.entry}.
   */
  tar(root: GatewayRoot, path: readonly string[], options?: CallOptions): Promise<GatewayTar>
}
