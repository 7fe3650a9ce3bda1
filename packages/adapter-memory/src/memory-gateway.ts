import {
  type DomainRecord,
  type GatewayRecordStore,
  type Network,
  PinfoldError,
  type SignatureRecord,
  type SwapRecord,
  throwIfAborted,
} from '@pinfold/interface'
import { copyFile, type MemoryState } from './memory-state.js'

interface StoredSwap extends SwapRecord {
  current: boolean
}

const scopeKey = (tenantId: string, network: Network, cid: string) => JSON.stringify([tenantId, network, cid])

/**
 * Public-content lookups, swaps, signatures, custom domains and expiry scans. Every check and
 * write happens synchronously after the first await, which makes the cycle check of `putSwap`
 * and the uniqueness checks atomic.
 */
export function memoryGatewayRecords(state: MemoryState): GatewayRecordStore {
  const swaps: StoredSwap[] = [] // append-only history; `current` marks the live mapping
  const signatures = new Map<string, SignatureRecord>()
  const domains = new Map<string, DomainRecord>()

  const currentSwap = (tenantId: string, network: Network, cid: string) =>
    swaps.find((s) => s.current && s.tenantId === tenantId && s.network === network && s.cid === cid)
  const copySwap = ({ current: _c, ...swap }: StoredSwap): SwapRecord => ({ ...swap })
  const tick = (options?: { signal?: AbortSignal | undefined }) => {
    throwIfAborted(options?.signal)
    return Promise.resolve()
  }

  return {
    async putSwap(swap, options) {
      await tick(options)
      // Walk the chain from the target; reaching the source means the new mapping closes a cycle.
      const seen = new Set<string>()
      for (let at: string | undefined = swap.mappedCid; at !== undefined; ) {
        if (at === swap.cid) throw new PinfoldError('CONFLICT', 'this swap would create a cycle of swaps')
        if (seen.has(at)) break
        seen.add(at)
        at = currentSwap(swap.tenantId, swap.network, at)?.mappedCid
      }
      const previous = currentSwap(swap.tenantId, swap.network, swap.cid)
      state.appendEvents(options?.events)
      if (previous) previous.current = false
      swaps.push({ ...swap, current: true })
      return { ...swap }
    },

    async getSwap(tenantId, network, cid, options) {
      await tick(options)
      const swap = currentSwap(tenantId, network, cid)
      return swap && copySwap(swap)
    },

    async listSwapHistory(tenantId, network, cid, options) {
      await tick(options)
      return swaps
        .filter((s) => s.tenantId === tenantId && s.network === network && s.cid === cid)
        .reverse()
        .map(copySwap)
    },

    async deleteSwap(tenantId, network, cid, options) {
      await tick(options)
      const swap = currentSwap(tenantId, network, cid)
      if (!swap) return false
      state.appendEvents(options?.events)
      swap.current = false
      return true
    },

    async addSignature(signature, options) {
      await tick(options)
      const key = scopeKey(signature.tenantId, signature.network, signature.cid)
      if (signatures.has(key)) throw new PinfoldError('CONFLICT', 'this CID already has a signature')
      state.appendEvents(options?.events)
      signatures.set(key, { ...signature })
      return { ...signature }
    },

    async getSignature(tenantId, network, cid, options) {
      await tick(options)
      const signature = signatures.get(scopeKey(tenantId, network, cid))
      return signature && { ...signature }
    },

    async deleteSignature(tenantId, network, cid, options) {
      await tick(options)
      const key = scopeKey(tenantId, network, cid)
      if (!signatures.has(key)) return false
      state.appendEvents(options?.events)
      return signatures.delete(key)
    },

    async createDomain(domain, options) {
      await tick(options)
      if (domains.has(domain.id)) throw new PinfoldError('CONFLICT', `domain id ${domain.id} already exists`)
      for (const [id, held] of domains) {
        if (held.domain === domain.domain && lapsed(held, domain.createdAt)) domains.delete(id)
      }
      const holders = [...domains.values()].filter((d) => d.domain === domain.domain)
      if (holders.some((d) => d.status === 'active' || d.tenantId === domain.tenantId)) {
        throw new PinfoldError('CONFLICT', `${domain.domain} is already registered`)
      }
      state.appendEvents(options?.events)
      domains.set(domain.id, { ...domain })
      return { ...domain }
    },

    async getDomain(tenantId, id, options) {
      await tick(options)
      const domain = domains.get(id)
      return domain && domain.tenantId === tenantId ? { ...domain } : undefined
    },

    async listDomains(tenantId, options) {
      await tick(options)
      return [...domains.values()]
        .filter((d) => d.tenantId === tenantId)
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1))
        .map((d) => ({ ...d }))
    },

    async findDomain(name, now, options) {
      await tick(options)
      const live = [...domains.values()].filter((d) => d.domain === name && !lapsed(d, now))
      const domain =
        live.find((d) => d.status === 'active') ??
        live.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1))[0]
      return domain && { ...domain }
    },

    async activateDomain(tenantId, id, verifiedAt, options) {
      await tick(options)
      const domain = domains.get(id)
      if (!domain || domain.tenantId !== tenantId) return undefined
      if (domain.status !== 'active') {
        if ([...domains.values()].some((d) => d.domain === domain.domain && d.status === 'active')) {
          throw new PinfoldError('CONFLICT', `${domain.domain} is already active for another claim`)
        }
        state.appendEvents(options?.events)
        domain.status = 'active'
        domain.verifiedAt = verifiedAt
        domain.expiresAt = null
      }
      return { ...domain }
    },

    async deleteDomain(tenantId, id, options) {
      await tick(options)
      const domain = domains.get(id)
      if (!domain || domain.tenantId !== tenantId) return false
      state.appendEvents(options?.events)
      return domains.delete(id)
    },

    async listExpiredFiles(now, limit, options) {
      await tick(options)
      return [...state.files.values()]
        .filter((f) => f.expiresAt !== null && f.expiresAt.getTime() <= now.getTime())
        .sort((a, b) => a.expiresAt!.getTime() - b.expiresAt!.getTime() || (a.id < b.id ? -1 : 1))
        .slice(0, limit)
        .map(copyFile)
    },
  }
}

/** A pending claim past its `expiresAt`: it neither routes nor blocks a new registration. */
function lapsed(domain: DomainRecord, now: Date): boolean {
  return domain.status !== 'active' && domain.expiresAt !== null && domain.expiresAt.getTime() <= now.getTime()
}
