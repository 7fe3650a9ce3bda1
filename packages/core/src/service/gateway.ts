import * as dagPb from '@ipld/dag-pb'
import { UnixFS } from 'ipfs-unixfs'
import { exporter, type UnixFSEntry } from 'ipfs-unixfs-exporter'
import { CID } from 'multiformats/cid'
import { blockKey, DAG_PB_CODE, isIdentity, RAW_CODE } from '../dag/blocks.js'
import type { ContentDag } from '../dag/content-dag.js'
import { openContentDag } from '../dag/open-content-dag.js'
import { invalid, notFound, PinfoldError } from '../errors.js'
import { type DagScope, type EntityBytes, encodeCar, scopedBlocks, unixfsType } from '../gateway/car-stream.js'
import type { ContentRecord, FileRecord, Network } from '../model.js'
import type { ByteRange, CallOptions } from '../ports.js'
import type { ServiceContext } from './context.js'

/**
 * Who a gateway request reads for:
 * - `public`: the shared `/ipfs/` gateway — any CID some tenant holds on the public network.
 * - `tenant`: a tenant's own gateway (a verified custom domain) — only that tenant's public files.
 */
export type GatewayScope = { kind: 'public' } | { kind: 'tenant'; tenantId: string }

/** The content a gateway request names, after swaps. */
export interface GatewayRoot {
  /** The CID in the request. */
  requested: CID
  /** The CID whose content is served: `requested`, or where its swaps lead. */
  cid: CID
  swapped: boolean
  /** `null` only for identity CIDs, whose bytes live in the CID itself. */
  content: ContentRecord | null
  dag: ContentDag
}

export interface DirectoryItem {
  name: string
  cid: CID
  /** Cumulative size of the entry's DAG, as the directory's link records it. */
  size: number
}

export type GatewayEntry =
  | {
      type: 'file'
      cid: CID
      size: number
      /** The file's bytes, or a range of them; reads only the blocks (or blob bytes) needed. */
      read(range?: ByteRange, options?: CallOptions): Promise<AsyncIterable<Uint8Array>>
    }
  | { type: 'directory'; cid: CID; list(options?: CallOptions): AsyncIterable<DirectoryItem> }

/** Longest swap chain followed; chains are acyclic by construction, this only bounds the work. */
const MAX_SWAP_HOPS = 64

/** Parses a CID from a URL or body; anything else is `INVALID_INPUT`. */
export function parseCid(text: string): CID {
  try {
    return CID.parse(text)
  } catch {
    throw invalid(`${JSON.stringify(text.slice(0, 100))} is not a valid CID`)
  }
}

/** The spellings a CID may be stored under: canonical, and the v0/v1 twin for sha2-256 dag-pb. */
export function cidSpellings(cid: CID): string[] {
  const spellings = [cid.toString()]
  try {
    if (cid.version === 1 && cid.code === DAG_PB_CODE && cid.multihash.code === 0x12)
      spellings.push(cid.toV0().toString())
    if (cid.version === 0) spellings.push(cid.toV1().toString())
  } catch {}
  return spellings
}

export function createGatewayOperations(ctx: ServiceContext) {
  /** The content record of the first spelling this scope may read, and the stored spelling. */
  async function findContent(
    scope: GatewayScope,
    cid: CID,
    options?: CallOptions,
  ): Promise<{ content: ContentRecord; cid: CID } | undefined> {
    for (const spelling of cidSpellings(cid)) {
      let content: ContentRecord | undefined
      if (scope.kind === 'public') content = await ctx.records.getPublicContent(spelling, options)
      else {
        const held = await ctx.records.listFiles(
          scope.tenantId,
          'public',
          { cid: spelling },
          { limit: 1, order: 'ASC' },
          options,
        )
        if (held.items.length > 0) content = await ctx.records.getContent(spelling, options)
      }
      if (content) return { content, cid: CID.parse(content.cid) }
    }
    return undefined
  }

  /** Follows a swap chain inside one tenant's public mappings. */
  async function followSwaps(tenantId: string, network: Network, start: string, options?: CallOptions) {
    let at = start
    for (let hop = 0; hop < MAX_SWAP_HOPS; hop++) {
      const next = await ctx.records.getSwap(tenantId, network, at, options)
      if (!next) return at
      at = next.mappedCid
    }
    throw new PinfoldError('CONFLICT', 'swap chain too long')
  }

  return {
    /**
     * The content a gateway request for `cidText` serves. With `swaps`, hot swaps apply (see
     * `docs`: on the public gateway the oldest public swap of the CID wins and its tenant's chain
     * is followed; on a tenant's gateway that tenant's public swaps apply). `NOT_FOUND` when the
     * scope may not read the content — a CID held only privately is never served here.
     */
    async resolve(
      scope: GatewayScope,
      cidText: string,
      { swaps = false, signal }: { swaps?: boolean; signal?: AbortSignal | undefined } = {},
    ): Promise<GatewayRoot> {
      const options = { signal }
      const requested = parseCid(cidText)
      if (isIdentity(requested)) return identityRoot(requested)
      let target = requested
      let swapped = false
      if (swaps) {
        let mapped: string | undefined
        if (scope.kind === 'public') {
          for (const spelling of cidSpellings(requested)) {
            const swap = await ctx.records.findPublicSwap(spelling, options)
            if (swap) {
              mapped = await followSwaps(swap.tenantId, 'public', swap.mappedCid, options)
              break
            }
          }
        } else {
          for (const spelling of cidSpellings(requested)) {
            const followed = await followSwaps(scope.tenantId, 'public', spelling, options)
            if (followed !== spelling) {
              mapped = followed
              break
            }
          }
        }
        if (mapped !== undefined) {
          target = parseCid(mapped)
          swapped = true
        }
      }
      const found = await findContent(scope, target, options)
      if (!found) throw notFound('content')
      return {
        requested,
        cid: found.cid,
        swapped,
        content: found.content,
        dag: openContentDag(found.content, ctx.blobs),
      }
    },

    /**
     * The root for a file the caller already proved it may read (a download link's file, on any
     * network): no public check, no swaps.
     */
    async resolveHeld(file: FileRecord, options?: CallOptions): Promise<GatewayRoot> {
      const content = await ctx.records.getContent(file.cid, options)
      if (!content) throw notFound('content')
      const cid = CID.parse(content.cid)
      return { requested: cid, cid, swapped: false, content, dag: openContentDag(content, ctx.blobs) }
    },

    /**
     * The UnixFS entry at `path` below the root, for deserialized responses. Bytes of a `file`
     * content come straight from its blob (a Range is one ranged read); paths and directories
     * are read from `car` contents' DAGs.
     */
    async entry(root: GatewayRoot, path: readonly string[], options?: CallOptions): Promise<GatewayEntry> {
      const content = root.content
      if (content?.kind === 'file' && path.length === 0) {
        return {
          type: 'file',
          cid: root.cid,
          size: content.size,
          read: (range, readOptions) =>
            range && range.length === 0
              ? Promise.resolve(empty())
              : ctx.blobs.get(content.blobKey, { signal: readOptions?.signal, range }),
        }
      }
      const found = await exportEntry(root.dag, path, options)
      return toGatewayEntry(found)
    },

    /** The terminal block of a path (`?format=raw`). */
    async block(root: GatewayRoot, path: readonly string[], options?: CallOptions) {
      const { terminal } = await resolvePath(root.dag, path, options)
      const bytes = isIdentity(terminal) ? terminal.multihash.digest : await root.dag.getBlock(terminal, options)
      if (!bytes) throw notFound('block')
      return { cid: terminal, bytes }
    },

    /**
     * A CARv1 for the path (`?format=car`): the blocks along the path, then the terminal's
     * scoped blocks, depth-first, each once. The path is resolved before the stream is returned,
     * so an unknown path is a `NOT_FOUND` rather than a broken stream.
     */
    async car(
      root: GatewayRoot,
      path: readonly string[],
      { scope = 'all', entityBytes }: { scope?: DagScope; entityBytes?: { from: number; to: number | '*' } } = {},
      options?: CallOptions,
    ) {
      const { terminal, along } = await resolvePath(root.dag, path, options)
      let range: EntityBytes | undefined
      let effectiveScope = scope
      if (entityBytes) {
        effectiveScope = 'entity'
        const size = await entitySize(root.dag, terminal, options)
        if (size !== undefined) {
          range = resolveEntityBytes(entityBytes, size)
          if (!range) effectiveScope = 'block'
        }
      }
      const dag = root.dag
      const seen = new Set<string>()
      async function* blocks() {
        for (const block of along) {
          seen.add(blockKey(block.cid))
          yield block
        }
        yield* scopedBlocks(dag, terminal, effectiveScope, range, seen, options)
      }
      return { terminal, scope: effectiveScope, range, stream: encodeCar(root.requested, blocks()) }
    },
  }
}

function identityRoot(cid: CID): GatewayRoot {
  return {
    requested: cid,
    cid,
    swapped: false,
    content: null,
    dag: {
      root: cid,
      getBlock: async (c) => (c.equals(cid) ? cid.multihash.digest : undefined),
      async *blocks() {},
    },
  }
}

async function* empty(): AsyncGenerator<Uint8Array> {}

/** A blockstore view of a content DAG for the UnixFS exporter, recording which blocks it read. */
function dagBlockstore(dag: ContentDag, options?: CallOptions) {
  const read: { cid: CID; bytes: Uint8Array }[] = []
  return {
    read,
    store: {
      async *get(cid: CID) {
        const bytes = isIdentity(cid) ? cid.multihash.digest : await dag.getBlock(cid, options)
        if (!bytes) throw notFound(`block ${cid}`)
        read.push({ cid, bytes })
        yield bytes
      },
    },
  }
}

async function exportEntry(dag: ContentDag, path: readonly string[], options?: CallOptions) {
  const { store } = dagBlockstore(dag, options)
  try {
    return await exporter([dag.root.toString(), ...path.map(encodeURIComponent)].join('/'), store, {
      signal: options?.signal,
    })
  } catch (error) {
    throw asGatewayError(error)
  }
}

/** Resolves a path to its terminal CID and the blocks read on the way (for CAR responses). */
async function resolvePath(dag: ContentDag, path: readonly string[], options?: CallOptions) {
  if (path.length === 0) return { terminal: dag.root, along: [] as { cid: CID; bytes: Uint8Array }[] }
  const recorder = dagBlockstore(dag, options)
  let entry: UnixFSEntry
  try {
    entry = await exporter([dag.root.toString(), ...path.map(encodeURIComponent)].join('/'), recorder.store, {
      signal: options?.signal,
    })
  } catch (error) {
    throw asGatewayError(error)
  }
  // Everything the exporter read to reach the terminal, minus the terminal itself.
  const along = recorder.read.filter((block) => !block.cid.equals(entry.cid))
  const unique = new Map(along.map((block) => [blockKey(block.cid), block]))
  return { terminal: entry.cid, along: [...unique.values()] }
}

function asGatewayError(error: unknown): unknown {
  const code = (error as { code?: unknown; name?: unknown }).name ?? (error as { code?: unknown }).code
  if (typeof code === 'string' && /NotFound|NoResolver|NoPropError|ERR_NOT_FOUND|ERR_NO_PROP/.test(code)) {
    return notFound('path')
  }
  return error
}

function toGatewayEntry(entry: UnixFSEntry): GatewayEntry {
  if (entry.type === 'file' || entry.type === 'raw' || entry.type === 'identity') {
    return {
      type: 'file',
      cid: entry.cid,
      size: Number(entry.size),
      read: async (range, readOptions) =>
        entry.content({
          offset: range?.offset,
          length: range?.length,
          signal: readOptions?.signal,
        }) as AsyncIterable<Uint8Array>,
    }
  }
  if (entry.type === 'directory') {
    return {
      type: 'directory',
      cid: entry.cid,
      async *list(listOptions) {
        for await (const child of entry.entries({ signal: listOptions?.signal })) {
          yield { name: child.name, cid: child.cid, size: Number(child.size) }
        }
      },
    }
  }
  throw new PinfoldError('NOT_FOUND', `cannot serve a ${entry.type} entry`)
}

/** A file's size when the terminal is a UnixFS file or raw block; `undefined` otherwise. */
async function entitySize(dag: ContentDag, cid: CID, options?: CallOptions): Promise<number | undefined> {
  const bytes = isIdentity(cid) ? cid.multihash.digest : await dag.getBlock(cid, options)
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
