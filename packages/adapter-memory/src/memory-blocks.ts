import {
  type BlockLocation,
  type BlockRecordStore,
  type ContentRecord,
  type FileRecord,
  throwIfAborted,
} from '@pinfold/interface'
import { copyFile, type MemoryState } from './memory-state.js'

const key = (multihash: Uint8Array) => Buffer.from(multihash).toString('base64')
const copy = (location: BlockLocation): BlockLocation => ({ ...location, multihash: location.multihash.slice() })

/** The block index in Maps; entries count once a content record owns their blob key. */
export function memoryBlockRecords(state: MemoryState): BlockRecordStore {
  const { blocks, blockHolders, contents, files } = state
  const tick = async (options?: { signal?: AbortSignal | undefined }) => throwIfAborted(options?.signal)
  const contentOf = (blobKey: string): ContentRecord | undefined => {
    for (const content of contents.values()) if (content.blobKey === blobKey) return content
    return undefined
  }

  return {
    async putBlockLocations(blobKey, locations, options) {
      await tick(options)
      const entries = blocks.get(blobKey) ?? new Map<string, BlockLocation>()
      blocks.set(blobKey, entries)
      for (const location of locations) {
        const id = key(location.multihash)
        if (entries.has(id)) continue
        entries.set(id, copy(location))
        const holders = blockHolders.get(id) ?? new Set<string>()
        blockHolders.set(id, holders)
        holders.add(blobKey)
      }
    },

    async findPublicBlock(multihash, { at, tenantId, excludeTenants = [] }, options) {
      await tick(options)
      let found: { content: ContentRecord; location: BlockLocation; until: Date | null } | undefined
      for (const blobKey of blockHolders.get(key(multihash)) ?? []) {
        const content = contentOf(blobKey)
        if (!content) continue
        const servers = [...files.values()].filter(
          (f) =>
            f.cid === content.cid &&
            f.network === 'public' &&
            (tenantId === undefined || f.tenantId === tenantId) &&
            !excludeTenants.includes(f.tenantId) &&
            (f.expiresAt === null || f.expiresAt > at),
        )
        if (servers.length === 0) continue
        const location = blocks.get(blobKey)!.get(key(multihash))!
        if (!found || (location.isRoot && !found.location.isRoot)) {
          const forever = servers.some((f) => f.expiresAt === null)
          const latest = Math.max(...servers.map((f) => f.expiresAt?.getTime() ?? 0))
          found = { content: { ...content }, location: copy(location), until: forever ? null : new Date(latest) }
        }
      }
      return found
    },

    async findHeldFile(tenantId, network, multihash, at, options) {
      await tick(options)
      const id = key(multihash)
      const held = [...files.values()]
        .filter((f) => f.tenantId === tenantId && f.network === network && (f.expiresAt === null || f.expiresAt > at))
        .filter((f) => {
          const content = contents.get(f.cid)
          return content !== undefined && blocks.get(content.blobKey)?.get(id)?.isRoot === true
        })
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1))
      return held[0] && copyFile(held[0])
    },

    async listRootHolders(multihash, limit, options) {
      await tick(options)
      const id = key(multihash)
      const after = options?.after
      return [...files.values()]
        .filter((f) => {
          const content = contents.get(f.cid)
          const holds = content !== undefined && blocks.get(content.blobKey)?.get(id)?.isRoot === true
          return holds && (after === undefined || holderOrder(f, after) > 0)
        })
        .sort(holderOrder)
        .slice(0, limit)
        .map(copyFile)
    },

    async listHeldRoots(after, limit, options) {
      await tick(options)
      const roots = new Set<string>()
      for (const f of files.values())
        if (contents.has(f.cid) && (after === undefined || f.cid > after)) roots.add(f.cid)
      return [...roots].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).slice(0, limit)
    },

    async getBlockLocation(blobKey, multihash, options) {
      await tick(options)
      const location = blocks.get(blobKey)?.get(key(multihash))
      return location && copy(location)
    },

    async listUnindexedContents(after, limit, options) {
      await tick(options)
      return [...contents.values()]
        .filter((content) => (after === undefined || content.cid > after) && !blocks.get(content.blobKey)?.size)
        .sort((a, b) => (a.cid < b.cid ? -1 : a.cid > b.cid ? 1 : 0))
        .slice(0, limit)
        .map((content) => ({ ...content }))
    },

    async listPublicRoots(after, limit, at, options) {
      await tick(options)
      const roots = new Set<string>()
      const excluded = new Set(options?.excludeTenants)
      for (const f of files.values()) {
        if (excluded.has(f.tenantId)) continue
        if (f.network === 'public' && (f.expiresAt === null || f.expiresAt > at) && contents.has(f.cid))
          roots.add(f.cid)
      }
      return [...roots]
        .filter((cid) => after === undefined || cid > after)
        .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
        .slice(0, limit)
    },

    async deleteBlockLocations(blobKey, options) {
      await tick(options)
      state.dropBlocks(blobKey)
    },
  }
}

/** `listRootHolders`' order: by tenant, then creation, then id. */
function holderOrder(a: Pick<FileRecord, 'tenantId' | 'createdAt' | 'id'>, b: typeof a): number {
  const text = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0)
  return text(a.tenantId, b.tenantId) || a.createdAt.getTime() - b.createdAt.getTime() || text(a.id, b.id)
}
