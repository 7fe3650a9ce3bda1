/**
 * `FileService`: what `createFileService` returns, declared as an interface — one sub-interface per
 * operation group, and the types its operations take and give. Callers (the HTTP layer, embedding
 * applications, tests) depend on this shape, never on how core builds it; the service hands out
 * no store, clock or other port.
 *
 * Rules shared by every operation:
 * - The last parameter is call options with an optional `signal` (`CallOptions` or an extension of
 *   it); the signal is passed to every port the operation calls. An aborted signal rejects with
 *   `ABORTED`. Clean-ups after a committed change (deleting released blobs, settling a payment whose
 *   nonce is burned) run to their end without it.
 * - Failures are `PinfoldError`s. Each method names the codes it reports itself; any method may also
 *   reject with what its ports report — `UNAVAILABLE` (a store or other dependency is down),
 *   `STORAGE_DENIED`, `ABORTED` — or `INTERNAL` (a bug).
 * - Inputs are typed as what the operation accepts, and checked again at run time: JavaScript callers
 *   and HTTP bodies hand over untrusted values, and a value of the wrong type or content is
 *   `INVALID_INPUT`.
 * - Tenant-scoped operations take the acting tenant first; a record of another tenant is answered
 *   exactly like a missing one (`NOT_FOUND`).
 * - A feature turned off at construction (see {@link FileService.features}) answers `UNAVAILABLE`
 *   from every operation that needs it, before any I/O.
 */

import type {
  Actor,
  ApiKeyRecord,
  ByteRange,
  CallOptions,
  CidVersion,
  DomainRecord,
  FileFilter,
  FileRecord,
  GroupFilter,
  GroupRecord,
  KeyValues,
  Network,
  PaymentCidRecord,
  PaymentInstructionRecord,
  PaymentPayload,
  PaymentRequirement,
  PaymentSettlement,
  PinRequestFilter,
  PinRequestRecord,
  SignatureRecord,
  StorageUsage,
  SwapRecord,
  VectorMatch,
} from '@pinfold/interface'
import type { CID } from 'multiformats/cid'
import type { TokenActor } from '../auth/tokens.js'
import type { PageQuery } from '../common/pagination.js'
import type { Block } from '../content/dag/blocks.js'
import type { DagScope, EntityBytes } from '../gateway/car-stream.js'
import type { ContentDag } from '../gateway/content-dag.js'

// ---------------------------------------------------------------------------------------------
// FileService
// ---------------------------------------------------------------------------------------------

/** The domain in one object: every operation the HTTP API offers, grouped by what it acts on. */
export interface FileService {
  files: FileOperations
  groups: GroupOperations
  gateway: GatewayOperations
  downloadLinks: DownloadLinkOperations
  swaps: SwapOperations
  vectors: VectorOperations
  signatures: SignatureOperations
  plugins: PluginOperations
  expiry: ExpiryOperations
  domains: DomainOperations
  payments: PaymentOperations
  maintenance: MaintenanceOperations
  uploads: UploadOperations
  health: HealthOperations
  apiKeys: ApiKeyOperations
  usage: UsageOperations
  pins: PinOperations
  /** Which optional features are on, decided once at construction (see `FileServiceOptions`). */
  readonly features: Readonly<Record<Feature, boolean>>
}

/**
 * The optional features and what turns each on (`createFileService` options): `signedUploads` and
 * `downloadLinks` need `signingSecret`; `paymentInstructions` needs `paymentSettings`;
 * `paidRetrieval` needs `paymentSettings`, `payments` and `signingSecret`; `vectors` needs
 * `embedder` and `textExtractor`; `apiKeys` (issuing them and accepting their JWTs) needs
 * `signingSecret`.
 */
export type Feature =
  | 'signedUploads'
  | 'downloadLinks'
  | 'paymentInstructions'
  | 'paidRetrieval'
  | 'vectors'
  | 'apiKeys'

/** A keyset page as the service answers it: an empty `nextPageToken` on the last page. */
interface ListResult {
  nextPageToken: string
}

/** Keyvalues as callers give them: numbers and booleans are accepted and stored as their text. */
export type KeyValueInput = Record<string, string | number | boolean>

// ---------------------------------------------------------------------------------------------
// files
// ---------------------------------------------------------------------------------------------

/** Options of an upload; each may arrive before or after the file's bytes (multipart order varies). */
export interface UploadOptions {
  /** Defaults to `private`, as in Pinata's API. */
  network: Network
  name: string
  groupId: string | null
  keyvalues: KeyValues
  cidVersion: CidVersion
  expiresAt: Date | null
  /** The single file is a CAR whose root becomes the record's CID (public network only). */
  car: boolean
}

/**
 * One piece of an upload request, in arrival order. A file's `content` must be read to its end
 * (or abandoned by throwing) before the next item is requested — exactly how a multipart body
 * behaves — so the whole upload streams with bounded memory.
 *
 * One file whose path has no `/` is a single-file upload; files whose paths carry a relative
 * directory (`photos/a.jpg`, `photos/b.jpg`) are a folder upload, imported as `ipfs add -r photos`.
 */
export type UploadItem =
  | { kind: 'file'; path: string; mimeType?: string | undefined; content: AsyncIterable<Uint8Array> }
  | { kind: 'options'; options: Partial<UploadOptions> }

export interface UploadResult {
  file: FileRecord
  isDuplicate: boolean
}

/** Limits a signed upload URL (or a resumable session created through one) puts on an upload. */
export interface UploadConstraints {
  /** Largest accepted upload in bytes (below the service's own limit). */
  maxBytes?: number | undefined
  /** Allowed MIME types: exact, `type/*` wildcards, `*`; folders need the literal `directory`. */
  allowMimeTypes?: readonly string[] | undefined
  /** Options that win over whatever the request says. */
  fixed?: Partial<UploadOptions> | undefined
}

export interface UploadCallOptions extends CallOptions {
  constraints?: UploadConstraints | undefined
}

export interface FileListQuery extends PageQuery, FileFilter {}

export interface FileListResult extends ListResult {
  files: FileRecord[]
}

export interface FileUpdate {
  name?: string | undefined
  /** Merged into the file's keyvalues; `null` removes a key. */
  keyvalues?: Record<string, string | number | boolean | null> | undefined
  /** A future moment, or `null` to keep the file forever. */
  expiresAt?: Date | null | undefined
}

export interface FileOperations {
  /**
   * Stores an uploaded file (or folder, or CAR) and records it. Bytes are durable in the blob store
   * before the record commits; a failed or aborted upload leaves neither a record nor a blob. The
   * same CID uploaded again by the tenant on the network answers `isDuplicate`.
   *
   * `INVALID_INPUT`: no file, more than one single file, bad options (name, keyvalues, network,
   * CID version, a past `expiresAt`), a type the constraints do not allow, a malformed CAR or a CAR
   * off the public network. `PAYLOAD_TOO_LARGE`: beyond `maxUploadBytes` or the constraints'
   * `maxBytes`. `NOT_FOUND`: `groupId` names no group of the tenant on the network.
   */
  upload(actor: Actor, items: AsyncIterable<UploadItem>, options?: UploadCallOptions): Promise<UploadResult>

  /** The tenant's file with this id on `network`. `NOT_FOUND` when there is none. */
  get(actor: Actor, network: Network, id: string, options?: CallOptions): Promise<FileRecord>

  /** A page of the tenant's files on `network`, filtered. `INVALID_INPUT`: a bad limit or page token. */
  list(actor: Actor, network: Network, query?: FileListQuery, options?: CallOptions): Promise<FileListResult>

  /**
   * Renames a file, merges keyvalues into its own, or sets or clears its expiry; returns the updated
   * file. `INVALID_INPUT`: nothing to update, or a bad name, keyvalues or expiry. `NOT_FOUND`.
   */
  update(actor: Actor, network: Network, id: string, update: FileUpdate, options?: CallOptions): Promise<FileRecord>

  /**
   * Deletes the record first, then — when no record references the CID any more — its bytes. A
   * failed blob delete leaves an unreferenced blob (found by the orphan sweep), never a record
   * pointing at missing bytes. `NOT_FOUND`.
   */
  delete(actor: Actor, network: Network, id: string, options?: CallOptions): Promise<void>
}

// ---------------------------------------------------------------------------------------------
// groups
// ---------------------------------------------------------------------------------------------

export interface GroupInput {
  name: string
  /** Default `false`. */
  isPublic?: boolean | undefined
}

export interface GroupUpdate {
  name?: string | undefined
  isPublic?: boolean | undefined
}

export interface GroupListQuery extends PageQuery, GroupFilter {}

export interface GroupListResult extends ListResult {
  groups: GroupRecord[]
}

export interface GroupOperations {
  /** Creates a group of the tenant on `network`. `INVALID_INPUT`: a bad name. */
  create(actor: Actor, network: Network, input: GroupInput, options?: CallOptions): Promise<GroupRecord>

  /** The tenant's group with this id on `network`. `NOT_FOUND`. */
  get(actor: Actor, network: Network, id: string, options?: CallOptions): Promise<GroupRecord>

  /** A page of the tenant's groups on `network`. `INVALID_INPUT`: a bad limit or page token. */
  list(actor: Actor, network: Network, query?: GroupListQuery, options?: CallOptions): Promise<GroupListResult>

  /** Renames a group or changes whether it is public. `INVALID_INPUT`: a bad name. `NOT_FOUND`. */
  update(actor: Actor, network: Network, id: string, update: GroupUpdate, options?: CallOptions): Promise<GroupRecord>

  /** Deletes a group; its files stay and belong to no group afterwards. `NOT_FOUND`. */
  delete(actor: Actor, network: Network, id: string, options?: CallOptions): Promise<void>

  /** Puts a file into a group; both must belong to the actor and live on `network`, else `NOT_FOUND`. */
  addFile(actor: Actor, network: Network, groupId: string, fileId: string, options?: CallOptions): Promise<void>

  /**
   * Takes a file out of a group; a file that is not in that group is left as it is. `NOT_FOUND`
   * when the group or the file does not exist.
   */
  removeFile(actor: Actor, network: Network, groupId: string, fileId: string, options?: CallOptions): Promise<void>
}

// ---------------------------------------------------------------------------------------------
// gateway
// ---------------------------------------------------------------------------------------------

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
   * expired contents are never listed.
   */
  publicRoots(options?: CallOptions): AsyncIterable<string>
}

// ---------------------------------------------------------------------------------------------
// downloadLinks
// ---------------------------------------------------------------------------------------------

export interface DownloadLinkRequest {
  /** Any URL whose path holds `/files/<cid>` (or `/ipfs/<cid>`); its host is ignored. */
  url: string
  /** Seconds the link stays valid after `date`: an integer or its decimal text, 1 to one year. */
  expires: number | string
  /** Unix seconds the validity starts at (an integer or its decimal text); default now. */
  date?: number | string | null | undefined
  /** Only `GET` (any case) can be signed; default `GET`. */
  method?: string | undefined
}

/** The file a valid download link opens, and the moment the link stops being valid. */
export interface OpenedDownloadLink {
  file: FileRecord
  expiresAt: Date
}

export interface DownloadPresignOptions extends CallOptions {
  /** A full `Content-Disposition` value for the blob store to answer with. */
  contentDisposition?: string | undefined
}

export interface DownloadLinkOperations {
  /**
   * Signs a link `<base>/files/<cid>?X-…&X-Signature=…` to one of the actor's files (private
   * network first). `base` is `baseUrl`, the API's public URL, unless the request's `url` names
   * another host: then that host must be one of the actor's active gateways (a dedicated name or a
   * verified custom domain) and the link is on it. The `img-*` parameters of `url` are carried into
   * the link, under the signature. The signature covers the tenant, so a link proves whose file it
   * opens. `INVALID_INPUT`: a bad url, method, expires or date (a date more than five minutes
   * ahead), or a host that is not the actor's gateway. `NOT_FOUND`: the actor holds no unexpired
   * file with that CID. `UNAVAILABLE` without a signing secret.
   */
  create(
    actor: Actor,
    request: DownloadLinkRequest,
    baseUrl: string,
    options?: CallOptions & {
      /** Host names that are the API's own (links on them use `baseUrl`). */
      ownHostnames?: readonly string[] | undefined
    },
  ): Promise<string>

  /**
   * Checks the query of a link for `/files/<cid>` and returns the tenant's file it opens.
   * `FORBIDDEN`: an unsigned, tampered, malformed or expired link. `NOT_FOUND`: the file is gone.
   * `UNAVAILABLE` without a signing secret.
   */
  open(cid: string, params: URLSearchParams, options?: CallOptions): Promise<OpenedDownloadLink>

  /**
   * A URL of the blob store itself (S3) for the file an opened link names, to redirect the client
   * to: valid while the link is, at most an hour. `undefined` when the blob store cannot presign
   * (no `presignGet`) or the file is a folder or CAR upload, whose blob is no file's bytes: serve
   * those through {@link GatewayOperations.resolveHeld}. `NOT_FOUND` when the file's content is gone.
   */
  presign(link: OpenedDownloadLink, options?: DownloadPresignOptions): Promise<string | undefined>
}

// ---------------------------------------------------------------------------------------------
// swaps, signatures, plugins
// ---------------------------------------------------------------------------------------------

/**
 * Hot swaps: inside a tenant and network, requests for a CID are answered with another CID's
 * content. They apply on the tenant's own gateway only (its active custom domains) and change
 * deserialized responses only; see `service/swaps.ts`.
 */
export interface SwapOperations {
  /**
   * Maps `cid` to `swapCid` (replacing an earlier mapping). Both must be held by the tenant on
   * `network`, else `NOT_FOUND`. `INVALID_INPUT`: not CIDs. `CONFLICT`: the swap would close a cycle.
   */
  add(actor: Actor, network: Network, cid: string, swapCid: string, options?: CallOptions): Promise<SwapRecord>

  /** Every swap made for `cid`, newest first. `NOT_FOUND` when there is none. */
  history(actor: Actor, network: Network, cid: string, options?: CallOptions): Promise<SwapRecord[]>

  /** Removes the swap of `cid`; the CID serves its own content again. `NOT_FOUND`. */
  remove(actor: Actor, network: Network, cid: string, options?: CallOptions): Promise<void>
}

export interface SignatureInput {
  /** A 0x-prefixed EIP-712 signature. */
  signature: string
  /** The Ethereum address that signed. */
  address: string
}

export interface SignatureOperations {
  /**
   * Verifies an EIP-712 signature over `(address, cid, date)` — `date` being when the tenant first
   * stored the CID on `network` (`CID_SIGNATURE_DOMAIN`, `CID_SIGNATURE_TYPES`) — and stores it, once
   * per CID. `INVALID_INPUT`: a bad address or signature, or one that does not verify. `NOT_FOUND`:
   * the tenant holds no file with this CID. `CONFLICT`: the CID is signed already.
   */
  add(
    actor: Actor,
    network: Network,
    cid: string,
    input: SignatureInput,
    options?: CallOptions,
  ): Promise<SignatureRecord>

  /** The signature stored for `cid`. `NOT_FOUND`. */
  get(actor: Actor, network: Network, cid: string, options?: CallOptions): Promise<SignatureRecord>

  /** Removes the signature of `cid`. `NOT_FOUND`. */
  remove(actor: Actor, network: Network, cid: string, options?: CallOptions): Promise<void>
}

/** A gateway plugin as the marketplace lists it (Pinata's shape). */
export interface GatewayPlugin {
  id: number
  name: string
  description: string
  /** An absolute URL of the plugin's icon (`https:`, or a `data:` URL as the built-in ones). */
  image: string
  tags: string[]
}

export interface PluginOperations {
  /** The marketplace listing configured by the host application (a copy: changing it changes nothing). */
  list(options?: CallOptions): Promise<GatewayPlugin[]>
}

// ---------------------------------------------------------------------------------------------
// vectors
// ---------------------------------------------------------------------------------------------

export interface VectorQueryInput {
  /** What to look for: 1 to 2000 characters. */
  text: string
  /** Most files returned: 1 to 20, default 20. */
  limit?: number | undefined
}

export interface VectorQueryResult {
  count: number
  matches: VectorMatch[]
}

/**
 * Semantic vectors of private files. Vectorizing and querying need the `vectors` feature (an
 * `embedder` and a `textExtractor`); without it they answer `UNAVAILABLE`.
 */
export interface VectorOperations {
  /**
   * Reads the file's text, embeds its passages and replaces the file's vectors (re-vectorizing is
   * idempotent). `INVALID_INPUT`: the file is public, in no group, a folder or CAR upload, or holds
   * no extractable text. `NOT_FOUND`. `PAYLOAD_TOO_LARGE`, `UNPROCESSABLE`, `RATE_LIMITED`: the text
   * extractor refused the file or is busy. `CONFLICT`: the index was built by another embedder.
   */
  vectorize(actor: Actor, fileId: string, options?: CallOptions): Promise<FileRecord>

  /** Removes the file's vectors; idempotent, needs no embedder. `INVALID_INPUT`: a public file. `NOT_FOUND`. */
  deleteVectors(actor: Actor, fileId: string, options?: CallOptions): Promise<FileRecord>

  /**
   * The group's files whose text means most nearly what `query.text` says, best first, each with its
   * best passage's cosine similarity. `INVALID_INPUT`: a bad text or limit, or a public group.
   * `NOT_FOUND`: no such group. `CONFLICT`: the index was built by another embedder.
   */
  query(actor: Actor, groupId: string, query: VectorQueryInput, options?: CallOptions): Promise<VectorQueryResult>
}

// ---------------------------------------------------------------------------------------------
// expiry, maintenance, health
// ---------------------------------------------------------------------------------------------

export interface ExpiryOperations {
  /**
   * Deletes every file whose `expiresAt` is at or before `now` (default: the service clock), through
   * the normal delete path so blobs no file references any more are released. Returns how many files
   * it deleted. Safe to run from several processes at once: a file deleted by another sweeper is
   * skipped.
   */
  sweep(now?: Date, options?: CallOptions): Promise<number>
}

export interface OrphanSweepOptions extends CallOptions {
  /** Only blobs older than this are touched; default one hour. */
  olderThanMs?: number | undefined
}

export interface OrphanSweepResult {
  examined: number
  deleted: number
}

export interface BackfillResult {
  indexed: number
  failed: { cid: string; error: unknown }[]
}

export interface MaintenanceOperations {
  /**
   * Deletes blobs that no content record owns: bytes of uploads that died between writing their blob
   * and committing their record (except a resumable upload's assembled blob while its session lives:
   * the session's retry records it); and blobs of resumable uploads (`tus/<session>/…`) that no session
   * names: those of PATCHes that died between storing them and advancing their session, which
   * nothing else would ever delete. Only blobs older than `olderThanMs` are touched — a blob key
   * holds a UUIDv7, so its age is read from the key itself and uploads still in flight are never swept.
   * With a blob store that cannot `list`, there is nothing to examine: `{ examined: 0, deleted: 0 }`.
   */
  sweepOrphanBlobs(options?: OrphanSweepOptions): Promise<OrphanSweepResult>

  /**
   * Indexes the blocks of contents stored before the block index existed; run once at start-up (and
   * harmless to run again). A content that cannot be indexed (its blob is gone) is reported in
   * `failed` and left. Until it has finished, blocks of those contents other than what their own
   * records name may answer `NOT_FOUND` on the gateway.
   */
  indexBlocks(options?: CallOptions): Promise<BackfillResult>
}

/** One store's answer to a readiness probe. */
export type HealthState = 'ok' | 'failed'

export interface HealthReport {
  /** True when both stores answered. */
  ok: boolean
  /** Each store's state; never the error, which may carry connection details. */
  checks: { records: HealthState; blobs: HealthState }
}

export interface HealthOperations {
  /**
   * Readiness: one cheap read of the record store and one of the blob store, side by side. A store
   * that fails (or does not answer before the signal aborts) is `failed` in the report; the method
   * itself does not reject.
   */
  check(options?: CallOptions): Promise<HealthReport>
}

// ---------------------------------------------------------------------------------------------
// domains
// ---------------------------------------------------------------------------------------------

/**
 * Custom gateway domains. A registered domain stays `pending_ownership` until a TXT record at
 * `_service-verify.<domain>` holds the token issued with it; `verify` then makes it `active`, and
 * requests whose `Host` is that domain are served as the tenant's gateway. Any number of tenants may
 * claim one name; the first to verify owns it, and an unverified claim lapses after a week.
 */
export interface DomainOperations {
  /** `createFileService({ gatewayDomain })`: dedicated gateways are `{name}.{gatewayDomain}`. */
  readonly gatewayDomain: string | undefined

  /**
   * Registers a pending claim. `reservedHosts`: the host names the deployment answers on itself (the
   * API's, the subdomain gateway's); neither they nor names under them can be claimed.
   * A name directly under `gatewayDomain` is a dedicated gateway: claimed `active` at once, with no
   * TXT record (the deployment owns that domain); the first tenant to claim it keeps it.
   * `INVALID_INPUT`: not a public host name (an IP literal, an internal name, a reserved host, a
   * name deeper under `gatewayDomain`). `CONFLICT`: the name is active for some tenant, or this
   * tenant's claim to it has not lapsed.
   */
  create(actor: Actor, domain: string, reservedHosts?: readonly string[], options?: CallOptions): Promise<DomainRecord>

  /** The tenant's domain with this id. `NOT_FOUND`. */
  get(actor: Actor, id: string, options?: CallOptions): Promise<DomainRecord>

  /** Every domain of the tenant. */
  list(actor: Actor, options?: CallOptions): Promise<DomainRecord[]>

  /** Removes a claim or an active domain. `NOT_FOUND`. */
  remove(actor: Actor, id: string, options?: CallOptions): Promise<void>

  /**
   * Looks the TXT record up; activates the domain when one of its values equals the token. A failed
   * or empty lookup leaves it `pending_ownership` (that is the answer, not an error). `NOT_FOUND`.
   * `CONFLICT`: the claim lapsed, or another tenant verified the name first. `UNAVAILABLE`: no TXT
   * resolver configured (`createFileService({ resolveTxt })`): refused before any store is read.
   */
  verify(actor: Actor, id: string, options?: CallOptions): Promise<DomainRecord>

  /**
   * Who serves `host` (a host name, port ignored): the tenant of its active claim, or `pending`
   * while only unverified claims exist; `undefined` when nobody claims it. IP literals are never
   * domains.
   */
  route(host: string, options?: CallOptions): Promise<{ tenantId: string; status: DomainRecord['status'] } | undefined>
}

// ---------------------------------------------------------------------------------------------
// payments
// ---------------------------------------------------------------------------------------------

/** A payment requirement as the client sends it: every field may be left to the server's defaults. */
export interface PaymentTermsInput {
  /** The network's USDC contract; default it. */
  asset?: string | undefined
  /** Default `PaymentSettings.defaultPayTo`. */
  payTo?: string | undefined
  /** x402 v1 name or CAIP-2 id of a configured network; default `PaymentSettings.defaultNetwork`. */
  network?: string | undefined
  /** Atomic units (an integer or its decimal text); default `PaymentSettings.defaultAmount`. */
  amount?: string | number | undefined
  description?: string | null | undefined
}

export interface PaymentInstructionInput {
  name?: string | undefined
  description?: string | null | undefined
  /** 1 to 10 requirements. Omitted on create: one requirement made of the server's defaults. */
  paymentRequirements?: readonly PaymentTermsInput[] | undefined
}

export interface PaymentInstructionListQuery extends PageQuery {
  cid?: string | undefined
  namePrefix?: string | undefined
  id?: string | undefined
}

export interface PaymentInstructionListResult extends ListResult {
  paymentInstructions: PaymentInstructionRecord[]
}

export interface PaymentCidListResult extends ListResult {
  cids: string[]
}

/** The client's payment, decoded by the transport against the requirements offered, and the one it pays. */
export interface PaymentChoice {
  payment: PaymentPayload
  /** One of the `offers` passed to `readPayment` (the same object). */
  requirement: PaymentRequirement
}

export interface RetrievePrivateOptions extends CallOptions {
  /** Absolute URL of this request: the x402 `resource`. */
  resourceUrl: string
  /** Absolute base URL of the API (with any mount prefix); the download link points under it. */
  publicUrl: string
  /**
   * Reads the payment the client sent, if any, against the requirements offered. Returns
   * `undefined` when there is none. Throws `INVALID_INPUT` when it is malformed, and
   * `PAYMENT_REQUIRED` (with `details.reason`) when it pays for terms that were not offered.
   */
  readPayment(offers: readonly PaymentRequirement[]): PaymentChoice | undefined
}

export type RetrievePrivateResult =
  | {
      paid: false
      /** Every way to pay, for the 402 challenge. */
      requirements: PaymentRequirement[]
      /** Why the payment sent was refused (an x402 reason code); absent when none was sent. */
      reason?: string | undefined
    }
  | {
      paid: true
      /** A short-lived private download link for the CID's bytes. */
      url: string
      settlement: PaymentSettlement
      x402Version: 1 | 2
    }

/**
 * x402 pay-per-request: tenants' payment instructions (the management operations need the
 * `paymentInstructions` feature only where they read the payment settings) and the anonymous paid
 * retrieval of a CID attached to one (`paidRetrieval`).
 */
export interface PaymentOperations {
  /**
   * Creates an instruction; its requirements' gaps are filled from the payment settings.
   * `INVALID_INPUT`: a bad name, description or requirement (a network not configured, another
   * asset than its USDC, no pay-to address). `UNAVAILABLE` without payment settings.
   */
  create(actor: Actor, input: PaymentInstructionInput, options?: CallOptions): Promise<PaymentInstructionRecord>

  /** The tenant's instruction with this id. `NOT_FOUND`. */
  get(actor: Actor, id: string, options?: CallOptions): Promise<PaymentInstructionRecord>

  /** A page of the tenant's instructions, filtered. `INVALID_INPUT`: a bad limit or page token. */
  list(actor: Actor, query?: PaymentInstructionListQuery, options?: CallOptions): Promise<PaymentInstructionListResult>

  /**
   * Changes an instruction's name, description or requirements (a new version). `INVALID_INPUT`:
   * nothing to update, or bad values as for {@link create}. `NOT_FOUND`. `UNAVAILABLE` when new
   * requirements are given without payment settings.
   */
  update(
    actor: Actor,
    id: string,
    input: PaymentInstructionInput,
    options?: CallOptions,
  ): Promise<PaymentInstructionRecord>

  /** Deletes an instruction. `NOT_FOUND`. `CONFLICT` while CIDs are attached: detach them first. */
  delete(actor: Actor, id: string, options?: CallOptions): Promise<void>

  /** A page of the CIDs attached to the instruction (20 by default). `NOT_FOUND`. */
  listCids(actor: Actor, id: string, query?: PageQuery, options?: CallOptions): Promise<PaymentCidListResult>

  /**
   * Attaches a CID the tenant holds (on either network) to the instruction; a CID is priced by one
   * instruction per tenant. `INVALID_INPUT`: not a CID. `NOT_FOUND`: no such instruction or held CID.
   * `CONFLICT`: another instruction of the tenant prices it.
   */
  addCid(actor: Actor, id: string, cid: string, options?: CallOptions): Promise<PaymentCidRecord>

  /** Detaches a CID from the instruction. `NOT_FOUND`: no such instruction, or the CID is not on it. */
  removeCid(actor: Actor, id: string, cid: string, options?: CallOptions): Promise<void>

  /**
   * `GET /v1/retrieve/private/{cid}`: no tenant, the payment is the credential. Offers the pricing
   * instruction's requirements, verifies the payment, claims its `(payer, nonce)` (a replay is
   * refused), settles it and signs a short-lived download link. A refused payment is a result
   * (`paid: false` with the reason), not an error. `NOT_FOUND`: no instruction prices the CID.
   * `INVALID_INPUT`: a malformed payment. `UNAVAILABLE`: the facilitator cannot be reached (then no
   * nonce is burned), the instruction names no network still configured, or the feature is off.
   */
  retrievePrivate(cid: string, options: RetrievePrivateOptions): Promise<RetrievePrivateResult>
}

// ---------------------------------------------------------------------------------------------
// uploads (signed URLs, resumable sessions)
// ---------------------------------------------------------------------------------------------

/** What `POST /v3/files/sign` asks for (the spec's body fields, camelCased). */
export interface SignUploadRequest {
  /** Unix seconds at which the URL is signed; default now. */
  date?: number | undefined
  /** Seconds the URL stays valid after `date`. */
  expires: number
  maxFileSize?: number | undefined
  allowMimeTypes?: readonly string[] | undefined
  groupId?: string | undefined
  keyvalues?: KeyValueInput | undefined
  filename?: string | undefined
  network?: Network | undefined
}

/** A verified signed upload URL: who uploads, until when, and under which constraints. */
export interface UploadGrant {
  actor: Actor
  expiresAt: Date
  constraints: UploadConstraints
}

export interface SignedUploadUrl {
  /** Relative to the API root, e.g. `/v3/files/<id>`; the HTTP layer prefixes its public URL. */
  path: string
  query: URLSearchParams
}

/**
 * Signed upload URLs: every constraint travels inside the URL and is covered by its HMAC signature,
 * so nothing unsigned can loosen them and no record is needed. Both need the `signedUploads` feature.
 */
export interface SignedUploadOperations {
  /**
   * Signs an upload URL for the actor under the given constraints. `INVALID_INPUT`: a bad date
   * (more than five minutes ahead), expiry, size, type list, network, keyvalues or filename.
   * `NOT_FOUND`: `groupId` names no group of the actor. `UNAVAILABLE` without a signing secret.
   */
  sign(actor: Actor, request: SignUploadRequest, options?: CallOptions): Promise<SignedUploadUrl>

  /**
   * Checks a signed upload URL before any byte is read; synchronous, as it reads no store.
   * `UNAUTHENTICATED`: no signature. `FORBIDDEN`: a wrong signature (any parameter or the path
   * changed) or an expired URL. `UNAVAILABLE` without a signing secret.
   */
  verify(path: string, query: URLSearchParams, options?: CallOptions): UploadGrant
}

export interface CreateSessionRequest {
  /** `Upload-Length`. */
  length: number
  /** From `Upload-Metadata` `filename` (else the name option). */
  fileName?: string | undefined
  /** From `Upload-Metadata` `filetype`. */
  mimeType?: string | undefined
  options: Partial<UploadOptions>
  /** Set when the session is created through a signed upload URL. */
  constraints?: UploadConstraints | undefined
}

export interface CreatedSession {
  id: string
  /** The secret half of the session's URL; only its hash is stored. */
  token: string
  length: number
  expiresAt: Date
}

export interface SessionStatus {
  offset: number
  length: number
  expiresAt: Date
}

export interface PatchResult extends SessionStatus {
  /** Set by the PATCH that completed the upload. */
  result?: UploadResult | undefined
}

/**
 * Uploads beyond a single request: signed URLs, and resumable sessions (tus 1.0 core + creation +
 * termination). A session is addressed by its id and secret token; an absent session, a wrong token
 * and an expired session are the same `NOT_FOUND`. The PATCH that completes a session runs the
 * ordinary upload, with its checks and errors.
 */
export interface UploadOperations {
  signed: SignedUploadOperations

  /**
   * Opens a session for `length` bytes; options the completion would refuse are refused now.
   * `INVALID_INPUT`: a bad length or option. `PAYLOAD_TOO_LARGE`: beyond the upload limit or the
   * constraints' `maxBytes`.
   */
  create(actor: Actor, request: CreateSessionRequest, options?: CallOptions): Promise<CreatedSession>

  /** The session's offset, length and expiry (tus HEAD). `NOT_FOUND`. */
  status(id: string, token: string, options?: CallOptions): Promise<SessionStatus>

  /**
   * Appends `body` at `offset` (tus PATCH); the PATCH reaching the announced length records the
   * upload (`result`). A resend of the last accepted part is acknowledged without storing it again.
   * `CONFLICT`: `offset` is not the session's (or another request wrote there first).
   * `PAYLOAD_TOO_LARGE`: bytes beyond the announced length. `NOT_FOUND`. The completion reports what
   * {@link FileOperations.upload} reports.
   */
  append(
    id: string,
    token: string,
    offset: number,
    body: AsyncIterable<Uint8Array>,
    options?: CallOptions,
  ): Promise<PatchResult>

  /**
   * Removes the session and its parts (tus termination). `NOT_FOUND`. `CONFLICT` while a completion
   * holds the session's claim (its bytes are being recorded).
   */
  terminate(id: string, token: string, options?: CallOptions): Promise<void>

  /**
   * Removes sessions abandoned past their expiry (default: the service clock's now), with their
   * parts; returns how many. Several processes may sweep at once. A session whose completion is
   * running (its claim's lease live) is left to it.
   */
  sweepExpiredSessions(now?: Date, options?: CallOptions): Promise<number>
}

// ---------------------------------------------------------------------------------------------
// API keys
// ---------------------------------------------------------------------------------------------

/** A key as it is shown: everything but the hash of its secret. */
export type ApiKeyInfo = Omit<ApiKeyRecord, 'secretHash'>

export interface ApiKeyInput {
  name: string
  /** Pinata's permissions: `{admin: true}`, or `{endpoints: {pinning: {pinFileToIPFS: true}, …}}` and/or `{resources: [scope, …]}`. */
  permissions: unknown
  /** Uses allowed in all (every authenticated request is one); unset or `null`: unlimited. */
  maxUses?: number | null | undefined
}

export interface CreatedApiKey {
  key: ApiKeyInfo
  /** The secret (`pinata_api_secret`): shown once, only its hash is stored. */
  secret: string
  /** A bearer token for the key (`JWT`): it names the key, so the key's revocation and `maxUses` apply to it. */
  jwt: string
}

export interface ApiKeyListQuery {
  offset?: number | undefined
  name?: string | undefined
  revoked?: boolean | undefined
  limitedUse?: boolean | undefined
  exhausted?: boolean | undefined
}

export interface ApiKeyOperations {
  /**
   * Creates a key of the actor's tenant. `INVALID_INPUT` for a bad name, permissions or `maxUses`;
   * `FORBIDDEN` when the permissions grant a scope the actor does not hold (no key outranks its
   * maker); `UNAVAILABLE` without a signing secret.
   */
  create(actor: TokenActor, input: ApiKeyInput, options?: CallOptions): Promise<CreatedApiKey>
  /** A page of the tenant's keys, newest first, and how many match in all. */
  list(actor: Actor, query: ApiKeyListQuery, options?: CallOptions): Promise<{ keys: ApiKeyInfo[]; total: number }>
  /** Revokes the tenant's key with this public `key`, for every server sharing the store; `NOT_FOUND`. */
  revoke(actor: Actor, key: string, options?: CallOptions): Promise<ApiKeyInfo>
  /**
   * The actor of a bearer token that is an API key's JWT — one use of the key (`UNAUTHENTICATED`
   * when it is revoked, exhausted, unknown or the token is not valid) — or `undefined` for any
   * other token, which the caller's token verifier decides.
   */
  authenticateToken(token: string, options?: CallOptions): Promise<TokenActor | undefined>
  /** The actor of a key presented as key and secret (`pinata_api_key` / `pinata_secret_api_key`): one use of it. */
  authenticateSecret(key: string, secret: string, options?: CallOptions): Promise<TokenActor>
}

// ---------------------------------------------------------------------------------------------
// usage
// ---------------------------------------------------------------------------------------------

/** One gateway answer of a tenant's content, as the HTTP layer saw it go out. */
export interface GatewayHit {
  tenantId: string
  /** The CID as requested. */
  cid: string
  /** The tenant's file name, when the handler knows it; else looked up when the counts are written. */
  fileName?: string | undefined
  status: number
  /** Body bytes sent (fewer than the file's size when the client went away). */
  bytes: number
}

/** Which of a tenant's gateway counts a query adds up; dates are UTC days, `YYYY-MM-DD`. */
export interface GatewayUsageFilter {
  /** Default: 30 days before `to`. */
  from?: string | undefined
  /** Default: today (UTC). */
  to?: string | undefined
  cid?: string | undefined
  fileName?: string | undefined
}

export interface UsageRankingQuery extends GatewayUsageFilter {
  by: 'cid' | 'fileName'
  sortBy: 'requests' | 'bytes'
  /** Default `desc`. */
  order?: 'asc' | 'desc' | undefined
  /** 1 to 1000, default 100. */
  limit?: number | undefined
}

export interface UsageTimeSeriesQuery extends GatewayUsageFilter {
  /** Periods of a day, or of an ISO week (starting on Monday). */
  interval: 'day' | 'week'
  /** Unset: periods in time order (`order: 'desc'` reverses it); set: ordered by that total. */
  sortBy?: 'requests' | 'bytes' | undefined
  order?: 'asc' | 'desc' | undefined
  limit?: number | undefined
}

export interface UsageTimeSeries {
  totalRequests: number
  totalBytes: number
  /** Only periods with counts; `start` is the period's first day. */
  periods: { start: string; requests: number; bytes: number }[]
}

export interface UsageOperations {
  /**
   * Counts one gateway answer in memory; {@link UsageOperations.flush} writes the counts. Does no
   * I/O, so there is nothing for a signal to stop (options are taken as by every operation).
   */
  recordGatewayHit(hit: GatewayHit, options?: CallOptions): void
  /**
   * Writes the counts held in memory to the record store in one batch and returns how many
   * totals it wrote. The host calls it every few seconds and at shutdown; what a crash loses is
   * what was counted since the last flush. On failure the counts are kept for the next one.
   */
  flush(options?: CallOptions): Promise<number>
  /** The tenant's gateway totals grouped by CID or file name (this process's counts flushed first). */
  rank(
    actor: Actor,
    query: UsageRankingQuery,
    options?: CallOptions,
  ): Promise<{ value: string; requests: number; bytes: number }[]>
  /** The tenant's gateway totals per day or week. */
  timeSeries(actor: Actor, query: UsageTimeSeriesQuery, options?: CallOptions): Promise<UsageTimeSeries>
  /** How many files the tenant holds and their total size. */
  storage(actor: Actor, options?: CallOptions): Promise<StorageUsage>
}

// ---------------------------------------------------------------------------------------------
// pins
// ---------------------------------------------------------------------------------------------

/** A pin-by-CID request as callers give it (Pinata's `POST /v3/files/public/pin_by_cid`). */
export interface PinInput {
  cid: string
  /** Defaults to the CID. */
  name?: string | undefined
  groupId?: string | null | undefined
  keyvalues?: KeyValueInput | undefined
  /**
   * Multiaddrs of peers that hold the content: at most 20, each at most 512 characters, naming a
   * host (`/ip4`, `/ip6`, `/dns`, `/dns4`, `/dns6`) and ending with the peer's id (`/p2p/…`),
   * none twice; kept in canonical form. Whether one may be dialled is decided at dial time, on
   * the addresses its name resolves to then.
   */
  hostNodes?: readonly string[] | undefined
}

export interface PinListQuery extends PageQuery, PinRequestFilter {}

/**
 * Pin by CID: requests to fetch a DAG from the IPFS network and keep it as a public file. A request
 * is queued in the record store and run by a worker (`runNext`, which `pinfold serve` calls in a
 * loop); the file it makes has the request's id.
 */
export interface PinOperations {
  /**
   * Queues a request. `INVALID_INPUT` for a CID that does not parse or whose codec or hash Pinfold
   * cannot keep (raw, dag-pb and dag-cbor; sha2-256 and sha2-512), bad names, keyvalues or host
   * nodes; `NOT_FOUND` for a group that is not the tenant's public group; `RATE_LIMITED` when the
   * tenant already has `pinning.maxQueuedPerTenant` requests queued or running.
   */
  add(actor: Actor, input: PinInput, options?: CallOptions): Promise<PinRequestRecord>

  /** A page of the tenant's requests, oldest first unless `order` says otherwise. */
  list(
    actor: Actor,
    query?: PinListQuery,
    options?: CallOptions,
  ): Promise<ListResult & { requests: PinRequestRecord[] }>

  /**
   * Deletes a request that is not pinned yet, stopping its job (at once in this process, at the
   * job's next lease renewal in another). `NOT_FOUND` for an unknown, pinned or other tenant's id.
   */
  remove(actor: Actor, id: string, options?: CallOptions): Promise<void>

  /**
   * Claims the next runnable request (queued, or abandoned by a worker whose lease ran out), tenants
   * taking turns and none running more than `pinning.maxRunningPerTenant` at once, and runs its job
   * to the end; false when there was none. When `signal` fires mid-job the request goes
   * back to the queue. Rejects only when the store fails; the job's own failures end the request.
   */
  runNext(options?: CallOptions): Promise<boolean>
}
