import * as dagPb from '@ipld/dag-pb'
import type { BlobStore, CallOptions, ContentRecord } from '@pinfold/interface'
import { isPinfoldError, notFound, PinfoldError } from '@pinfold/interface'
import { UnixFS } from 'ipfs-unixfs'
import { exporter, type UnixFSEntry, walkPath as walkUnixfsPath } from 'ipfs-unixfs-exporter'
import { CID } from 'multiformats/cid'
import { parseCid } from '../common/parse-cid.js'
import {
  type Block,
  blockKey,
  DAG_CBOR_CODE,
  DAG_JSON_CODE,
  isIdentity,
  isLeafBlock,
  RAW_CODE,
} from '../content/dag/blocks.js'
import { readAll } from '../content/dag/car-blob.js'
import type { ServiceContext } from '../service/context.js'
import type { TenantOperations } from '../tenants/api.js'
import type { DirectoryItem, GatewayEntry, GatewayOperations, GatewayRoot, GatewayScope, PathRoots } from './api.js'
import { type EntityBytes, encodeCar, scopedBlocks, unixfsType } from './car-stream.js'
import { type ContentDag, openContentDag } from './content-dag.js'
import { readUnixfsFile } from './file-reader.js'
import type { GatewayReadCache } from './read-cache.js'
import { type WorkBudget, workBudget } from './work-budget.js'

/**
 * What the gateway operations use of the service, and the tenants whose content an operator hid
 * (`TenantOperations.hiddenTenants`): content only they hold publicly is not served.
 */
export type GatewaySettings = Pick<ServiceContext, 'records' | 'blobs' | 'clock' | 'gatewayCache' | 'deny'> & {
  hiddenTenants: TenantOperations['hiddenTenants']
  /** Which read of the hidden tenants is current, if one is (`TenantDirectory.hiddenTenantsVersion`). */
  hiddenTenantsVersion?: (() => number | undefined) | undefined
}

/** Roots read per page when listing every public root (for DHT announcements). */
const PUBLIC_ROOTS_PAGE = 500

/** Longest swap chain followed; chains are acyclic by construction, this only bounds the work. */
const MAX_SWAP_HOPS = 64

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex')

export function createGatewayOperations(ctx: GatewaySettings): GatewayOperations {
  const cache = ctx.gatewayCache
  const blocks = ctx.records.blocks
  const deny = ctx.deny
  const stores = {
    blobs: ctx.blobs,
    records: {
      getBlockLocation: (blobKey: string, multihash: Uint8Array, options?: CallOptions) =>
        cache.location(`${blobKey}|${hex(multihash)}`, () => blocks.getBlockLocation(blobKey, multihash, options)),
    },
    blockCache: { get: cache.getBytes, set: cache.setBytes },
    deny: (cid: CID) => deny.enforceCid(cid, 'gateway'),
  }
  /** On a tenant's gateway every block is checked against its own list too. */
  const storesOn = (gatewayTenant: string | undefined) =>
    gatewayTenant === undefined
      ? stores
      : { ...stores, deny: (cid: CID) => deny.enforceCid(cid, 'gateway', gatewayTenant) }
  // the tenant whose gateway resolved a root (its own deny list applies to the root's paths and blocks)
  const gatewayTenants = new WeakMap<GatewayRoot, string>()
  // a tenant's own reads (private downloads, signed links) follow `denylistPrivateReads`
  const heldRoots = new WeakSet<GatewayRoot>()
  const heldStores = {
    ...stores,
    deny: deny.privateReads ? (cid: CID) => deny.enforceCid(cid, 'download') : undefined,
  }

  /** Refuses a path below a root when a path rule (`/ipfs/CID/path`) names it; the root alone is checked by `resolve`. */
  function enforcePath(root: GatewayRoot, path: readonly string[]): void {
    const held = heldRoots.has(root)
    if (path.length === 0 || (held && !deny.privateReads)) return
    const site = held ? 'download' : 'gateway'
    const tenant = gatewayTenants.get(root)
    deny.enforce({ namespace: 'ipfs', cid: root.requested, path: path.join('/') }, site, tenant)
    if (root.swapped) deny.enforce({ namespace: 'ipfs', cid: root.cid, path: path.join('/') }, site, tenant)
  }

  /** The DAG below `cid` inside public content this scope may read, found by the block's multihash. */
  async function findDag(
    scope: GatewayScope,
    cid: CID,
    options?: CallOptions,
  ): Promise<{ dag: ContentDag; until: Date | null | undefined } | undefined> {
    const tenantId = scope.kind === 'tenant' ? scope.tenantId : undefined
    const multihash = cid.multihash.bytes
    const now = ctx.clock.now()
    const excludeTenants = await ctx.hiddenTenants(options)
    // the hidden tenants are part of the key: a suspension that hides content changes the answer
    // without a record-store write, and a new key is the next request's fresh lookup
    const found = await cache.located(`${tenantId ?? ''}|${hex(multihash)}|${excludeTenants.join(',')}`, now, () =>
      blocks.findPublicBlock(multihash, { at: now, tenantId, excludeTenants }, options),
    )
    return found && { dag: openContentDag(found.content, cid, storesOn(tenantId)), until: found.until }
  }

  /** Follows a swap chain inside one tenant's public mappings. */
  async function followSwaps(tenantId: string, start: string, options?: CallOptions) {
    let at = start
    for (let hop = 0; hop < MAX_SWAP_HOPS; hop++) {
      const next = await ctx.records.gateway.getSwap(tenantId, 'public', at, options)
      if (!next) return at
      at = next.mappedCid
    }
    throw new PinfoldError('CONFLICT', 'swap chain too long')
  }

  /**
   * Where the tenant's public swaps send `requested` (found under the tenant's spelling of it), if
   * anywhere. Kept in the read cache until a file is added, deleted or given another expiry, or a
   * swap is put or removed; the one change it does not see at once is the held file's expiry passing
   * (its spelling then stops counting): that waits for the expiry sweep's delete or the cache's TTL.
   */
  async function swapTarget(tenantId: string, requested: CID, options?: CallOptions): Promise<CID | undefined> {
    const target = await cache.swapTarget(`${tenantId}|${requested}`, async () => {
      const held = await blocks.findHeldFile(tenantId, 'public', requested.multihash.bytes, ctx.clock.now(), options)
      const spelling = held?.cid ?? requested.toString()
      const followed = await followSwaps(tenantId, spelling, options)
      return followed === spelling ? null : followed
    })
    return target === null ? undefined : parseCid(target)
  }

  return {
    async publicBlock(cidText, options) {
      const cid = parseCid(cidText)
      if (isIdentity(cid)) return cid.multihash.digest
      // a peer asking for a blocked block is told we do not have it
      if (deny.refuses({ namespace: 'ipfs', cid }, 'bitswap')) return undefined
      const found = await findDag({ kind: 'public' }, cid, options)
      return found?.dag.getBlock(cid, options)
    },

    async *publicRoots(options) {
      // a hidden tenant's content is not announced unless a visible tenant holds it publicly too,
      // as the gateways, bitswap and the routing endpoint serve it (`findDag`)
      const excludeTenants = await ctx.hiddenTenants(options)
      let after: string | undefined
      for (;;) {
        const page = await ctx.records.blocks.listPublicRoots(after, PUBLIC_ROOTS_PAGE, ctx.clock.now(), {
          ...options,
          excludeTenants,
        })
        // a blocked root is no longer announced: its provider records lapse (withdrawn)
        yield* page.filter((cid) => !deny.lists.check({ namespace: 'ipfs', cid: parseCid(cid) }))
        if (page.length < PUBLIC_ROOTS_PAGE) return
        after = page.at(-1)
      }
    },

    async resolve(scope, cidText, { swaps = false, signal } = {}) {
      const options = { signal }
      const requested = parseCid(cidText)
      if (isIdentity(requested)) return { requested, cid: requested, swapped: false, dag: null, until: null }
      const tenant = scope.kind === 'tenant' ? scope.tenantId : undefined
      deny.enforceCid(requested, 'gateway', tenant)
      const target = swaps && tenant !== undefined ? await swapTarget(tenant, requested, options) : undefined
      if (target) deny.enforceCid(target, 'gateway', tenant)
      // a swap whose target the tenant no longer serves (deleted, expired) falls back to the CID itself
      const swappedDag = target && (await findDag(scope, target, options))
      const found = target && swappedDag ? undefined : await findDag(scope, requested, options)
      if (!swappedDag && !found) throw notFound('content')
      const root: GatewayRoot = swappedDag
        ? { requested, cid: target!, swapped: true, dag: swappedDag.dag }
        : { requested, cid: requested, swapped: false, dag: found!.dag, until: found!.until }
      if (tenant !== undefined) gatewayTenants.set(root, tenant)
      return root
    },

    answerStamp() {
      const hidden = ctx.hiddenTenantsVersion?.()
      if (hidden === undefined) return undefined
      return { stamp: `${cache.generation}|${deny.lists.version}|${hidden}`, now: ctx.clock.now().getTime() }
    },

    async resolveHeld(file, options) {
      const content = await ctx.records.files.getContent(file.cid, options)
      if (!content) throw notFound('content')
      const cid = CID.parse(content.cid)
      if (deny.privateReads) deny.enforceCid(cid, 'download')
      const root = { requested: cid, cid, swapped: false, dag: openContentDag(content, cid, heldStores) }
      heldRoots.add(root)
      return root
    },

    async entry(root, path, options) {
      enforcePath(root, path)
      const dag = root.dag
      const content = dag?.content
      if (content?.kind === 'file' && path.length === 0 && dag!.atContentRoot) {
        if (deny.activeFor(gatewayTenants.get(root))) await dag!.checkBlocks(options)
        return wholeFile(root.cid, content, ctx.blobs, cache)
      }
      const budget = workBudget(content ?? null)
      const walked = await walkPath(root, path, budget, options)
      return toGatewayEntry(await exportTerminal(walked), root, budget)
    },

    async block(root, path, options) {
      enforcePath(root, path)
      const { terminal, roots } = await walkPath(root, path, workBudget(root.dag?.content ?? null), options)
      const bytes = await getBlock(root, terminal, options)
      if (!bytes) throw notFound('block')
      return { cid: terminal, bytes, roots }
    },

    async car(root, path, { scope = 'all', entityBytes, dups = false, signal } = {}) {
      const options = { signal }
      enforcePath(root, path)
      const budget = workBudget(root.dag?.content ?? null)
      const { terminal, along, roots } = await walkPath(root, path, budget, options)
      let range: EntityBytes | undefined
      let effectiveScope = scope
      if (entityBytes) {
        effectiveScope = 'entity'
        const size = await entitySize(root, terminal, options)
        if (size !== undefined) {
          range = resolveEntityBytes(entityBytes, size)
          if (!range) effectiveScope = 'block'
        }
      }
      const seen = new Set<string>()
      const dag = root.dag
      async function* blocks(): AsyncGenerator<Block> {
        for (const block of along) {
          seen.add(blockKey(block.cid))
          yield block
        }
        if (!dag) {
          if (!isIdentity(terminal)) throw notFound('block')
          return // identity blocks live in their CIDs and are never sent
        }
        const scoped = dag.root.equals(terminal)
          ? dag
          : openContentDag(dag.content, terminal, heldRoots.has(root) ? heldStores : storesOn(gatewayTenants.get(root)))
        yield* scopedBlocks(scoped, effectiveScope, range, seen, budget, { ...options, dups })
      }
      return { terminal, roots, scope: effectiveScope, range, stream: encodeCar(root.requested, blocks()) }
    },
  }
}

/**
 * A whole file read straight from its blob. A small one is read once and then served from the
 * read cache (its bytes never change; only the facts that lead here do, and those are checked on
 * every request).
 */
function wholeFile(cid: CID, content: ContentRecord, blobs: BlobStore, cache: GatewayReadCache): GatewayEntry {
  const small = content.size <= cache.maxItemBytes
  const key = `file|${content.blobKey}`
  return {
    type: 'file',
    cid,
    roots: [cid],
    size: content.size,
    read: async (range, readOptions) => {
      if (range && range.length === 0) return empty()
      if (!small) return blobs.get(content.blobKey, { signal: readOptions?.signal, range })
      let bytes = cache.getBytes(key)
      if (!bytes) {
        bytes = await readAll(await blobs.get(content.blobKey, { signal: readOptions?.signal }))
        cache.setBytes(key, bytes)
      }
      const offset = range?.offset ?? 0
      return once(bytes.subarray(offset, range?.length === undefined ? undefined : offset + range.length))
    },
  }
}

async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  if (bytes.length > 0) yield bytes
}

async function* empty(): AsyncGenerator<Uint8Array> {}

async function getBlock(root: GatewayRoot, cid: CID, options?: CallOptions): Promise<Uint8Array | undefined> {
  if (isIdentity(cid)) return cid.multihash.digest
  return root.dag?.getBlock(cid, options)
}

/**
 * A blockstore view of the root's DAG for the UnixFS exporter: each read is charged to the
 * request's budget (leaf bytes earn more), and the blocks read are recorded for CAR pathing.
 */
function dagBlockstore(root: GatewayRoot, budget: WorkBudget, options?: CallOptions) {
  const read: Block[] = []
  return {
    read,
    store: {
      async *get(cid: CID) {
        const bytes = await budget.read(() => getBlock(root, cid, options))
        if (!bytes) throw notFound(`block ${cid}`)
        if (isLeafBlock(cid, bytes)) budget.earn(bytes.length)
        read.push({ cid, bytes })
        yield bytes
      },
    },
  }
}

interface WalkedPath extends PathRoots {
  terminal: CID
  /** Every block read to reach the terminal, each once, without the terminal (CAR pathing). */
  along: Block[]
  store: ReturnType<typeof dagBlockstore>['store']
  signal: AbortSignal | undefined
}

/**
 * Resolves a path below the root once, for every kind of answer: its terminal, the CID of each
 * segment, and the blocks read on the way. The exporter matches each segment against link names
 * literally (no percent-decoding).
 */
async function walkPath(
  root: GatewayRoot,
  path: readonly string[],
  budget: WorkBudget,
  options?: CallOptions,
): Promise<WalkedPath> {
  const recorder = dagBlockstore(root, budget, options)
  const signal = options?.signal
  if (path.length === 0) return { terminal: root.cid, roots: [root.cid], along: [], store: recorder.store, signal }
  let last: { cid: CID; roots: CID[]; remainder: string[] } | undefined
  try {
    for await (const step of walkUnixfsPath([root.cid.toString(), ...path].join('/'), recorder.store, { signal })) {
      last = step
    }
  } catch (error) {
    throw asGatewayError(error)
  }
  if (!last) throw notFound('path')
  // the path went on inside a dag-json/dag-cbor block to a value that is no link: only whole
  // blocks are served (path gateway spec: 501 for reading IPLD kinds other than links); below a
  // UnixFS node or raw block, such a path does not exist
  if (last.remainder.length > 0) {
    throw last.cid.code === DAG_CBOR_CODE || last.cid.code === DAG_JSON_CODE
      ? notALink(last.remainder)
      : notFound('path')
  }
  const terminal = last.cid
  const along = recorder.read.filter((block) => !block.cid.equals(terminal))
  const unique = new Map(along.map((block) => [blockKey(block.cid), block]))
  return { terminal, roots: last.roots, along: [...unique.values()], store: recorder.store, signal }
}

function notALink(remainder: readonly string[]): PinfoldError {
  return new PinfoldError('NOT_IMPLEMENTED', `/${remainder.join('/')} is a value inside a block, not a link to one`)
}

/** The UnixFS entry at a walked path's terminal. */
async function exportTerminal({ terminal, roots, store, signal }: WalkedPath) {
  try {
    return { entry: await exporter(terminal, store, { signal }), roots }
  } catch (error) {
    throw asGatewayError(error)
  }
}

/**
 * The exporter's failures in gateway terms: a path that does not exist is `NOT_FOUND`; a block
 * that cannot be decoded as UnixFS (malformed, or another codec's data) is `UNPROCESSABLE` —
 * the stored content is not servable that way, which is no server failure.
 */
function asGatewayError(error: unknown): unknown {
  if (isPinfoldError(error)) return error
  const code = (error as { name?: unknown }).name ?? (error as { code?: unknown }).code
  if (
    typeof code === 'string' &&
    /NotFound|NoResolver|NoPropError|BadPath|ERR_NOT_FOUND|ERR_NO_PROP|ERR_BAD_PATH/.test(code)
  ) {
    return notFound('path')
  }
  return new PinfoldError('UNPROCESSABLE', 'this content cannot be read as UnixFS', { cause: error })
}

function toGatewayEntry(
  { entry, roots }: { entry: UnixFSEntry; roots: CID[] },
  root: GatewayRoot,
  budget: WorkBudget,
): GatewayEntry {
  if (entry.type === 'file' && entry.unixfs.type === 'symlink') return symlinkEntry(entry.cid, entry.unixfs.data, roots)
  if (entry.type === 'file' || entry.type === 'raw' || entry.type === 'identity') {
    const get = async (cid: CID) => {
      const bytes = await getBlock(root, cid)
      if (!bytes) throw new PinfoldError('INTERNAL', `block ${cid} is missing`)
      return bytes
    }
    return {
      type: 'file',
      cid: entry.cid,
      roots,
      size: Number(entry.size),
      read: async (range, readOptions) => readUnixfsFile(entry.cid, get, range, budget, readOptions),
    }
  }
  if (entry.type === 'directory') {
    return {
      type: 'directory',
      cid: entry.cid,
      roots,
      list: (listOptions) => listDirectory(root, entry.cid, budget, listOptions),
    }
  }
  throw new PinfoldError('UNPROCESSABLE', `cannot serve a ${entry.type} entry`)
}

/**
 * A UnixFS symlink is answered with its target path as its bytes (what `readlink` gives), never
 * followed: a target is a path on the publisher's machine, which names nothing on a gateway.
 */
function symlinkEntry(cid: CID, target: Uint8Array | undefined, roots: CID[]): GatewayEntry {
  const bytes = target ?? new Uint8Array()
  return {
    type: 'file',
    symlink: true,
    cid,
    roots,
    size: bytes.length,
    read: async (range) => {
      const offset = range?.offset ?? 0
      const slice = bytes.subarray(offset, range?.length === undefined ? undefined : offset + range.length)
      return (async function* () {
        if (slice.length > 0) yield slice
      })()
    },
  }
}

/**
 * The entries of a UnixFS directory, streamed: a plain directory's links, or every entry of a
 * HAMT-sharded one, visiting each distinct shard node once — shard nodes that link to the same
 * sub-shard many times cannot multiply the listing.
 */
async function* listDirectory(
  root: GatewayRoot,
  cid: CID,
  budget: WorkBudget,
  options?: CallOptions,
): AsyncGenerator<DirectoryItem> {
  const seen = new Set<string>()
  const pending: CID[] = [cid]
  while (pending.length > 0) {
    const shard = pending.pop()!
    if (seen.has(blockKey(shard))) continue
    seen.add(blockKey(shard))
    const bytes = await budget.read(() => getBlock(root, shard, options))
    if (!bytes) throw new PinfoldError('INTERNAL', `block ${shard} is missing`)
    const node = decodeDirectory(shard, bytes)
    for (const link of node.links) {
      const name = link.Name ?? ''
      if (node.prefixLength === 0) yield { name, cid: link.Hash, size: link.Tsize ?? 0 }
      else if (name.length === node.prefixLength) pending.push(link.Hash)
      else yield { name: name.slice(node.prefixLength), cid: link.Hash, size: link.Tsize ?? 0 }
    }
  }
}

/** A directory node's links; `prefixLength` is the bucket prefix of a HAMT shard's link names (0 for plain directories). */
function decodeDirectory(cid: CID, bytes: Uint8Array) {
  try {
    const node = dagPb.decode(bytes)
    const unixfs = node.Data ? UnixFS.unmarshal(node.Data) : undefined
    if (unixfs?.type === 'directory') return { links: node.Links, prefixLength: 0 }
    if (unixfs?.type === 'hamt-sharded-directory') {
      const fanout = Number(unixfs.fanout ?? 256n)
      return { links: node.Links, prefixLength: (fanout - 1).toString(16).length }
    }
  } catch (cause) {
    throw new PinfoldError('UNPROCESSABLE', `block ${cid} is not a UnixFS directory`, { cause })
  }
  throw new PinfoldError('UNPROCESSABLE', `block ${cid} is not a UnixFS directory`)
}

/** A file's size when the terminal is a UnixFS file or raw block; `undefined` otherwise. */
async function entitySize(root: GatewayRoot, cid: CID, options?: CallOptions): Promise<number | undefined> {
  const bytes = await getBlock(root, cid, options)
  if (!bytes) return undefined
  if (cid.code === RAW_CODE) return bytes.length
  if (unixfsType(cid, bytes) !== 'file') return undefined
  const node = dagPb.decode(bytes)
  return node.Data ? Number(UnixFS.unmarshal(node.Data).fileSize()) : 0
}

/**
 * `entity-bytes=from:to` against a size: negative positions count from the end, `*` is the last
 * byte. `undefined` when the range lies wholly outside the entity (the spec then answers like
 * `dag-scope=block`).
 */
export function resolveEntityBytes(spec: { from: number; to: number | '*' }, size: number): EntityBytes | undefined {
  const from = spec.from < 0 ? Math.max(0, size + spec.from) : spec.from
  const to = spec.to === '*' ? size - 1 : spec.to < 0 ? size + spec.to : Math.min(spec.to, size - 1)
  if (size === 0 || from >= size || to < from) return undefined
  return { from, to }
}
