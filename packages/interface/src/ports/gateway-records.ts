import type { CallOptions } from '../call-options.js'
import type { FileRecord, Network } from '../model.js'
import type { RecordedOptions } from './event-records.js'

/**
 * Records behind the gateway and the operations that change what it serves: which CIDs are
 * public, hot swaps, CID signatures, custom gateway domains and file expiry.
 */

/** A hot swap: inside one tenant and network, requests for `cid` are answered with `mappedCid`. */
export interface SwapRecord {
  tenantId: string
  network: Network
  cid: string
  mappedCid: string
  createdAt: Date
}

/** An EIP-712 signature a tenant attached to one of its CIDs. */
export interface SignatureRecord {
  tenantId: string
  network: Network
  cid: string
  signature: string
  /** The signer's address as given (checksummed or not); verified before it is stored. */
  address: string
  createdAt: Date
}

export const DOMAIN_STATUSES = ['pending_ownership', 'active'] as const
export type DomainStatus = (typeof DOMAIN_STATUSES)[number]

/**
 * A tenant's claim to serve its gateway on a custom domain. Several tenants may hold pending
 * claims to one name at once: a claim proves nothing until its TXT record is found, and the first
 * claim verified is the name's one active owner. So an early, unverifiable claim never locks the
 * real owner of the name out.
 */
export interface DomainRecord {
  id: string
  tenantId: string
  /** Lower-case host name without port or trailing dot; active for at most one claim. */
  domain: string
  /** What the `_service-verify.<domain>` TXT record must hold. */
  verificationToken: string
  status: DomainStatus
  createdAt: Date
  verifiedAt: Date | null
  /** When a pending claim lapses (it then neither routes nor blocks anyone); `null` once active. */
  expiresAt: Date | null
}

export interface GatewayRecordStore {
  // --- swaps ---------------------------------------------------------------------------------

  /**
   * Makes `swap` the current mapping of `(tenantId, network, cid)`, replacing any current one
   * (the replaced mapping stays in the history). `CONFLICT` when the new mapping would close a
   * cycle among the tenant's current mappings on that network (`cid` reachable from `mappedCid`,
   * including `cid === mappedCid`); decided atomically, so of two concurrent swaps that together
   * would form a cycle at most one succeeds.
   */
  putSwap(swap: SwapRecord, options?: RecordedOptions): Promise<SwapRecord>

  /** The current mapping of a CID for this tenant and network. */
  getSwap(tenantId: string, network: Network, cid: string, options?: CallOptions): Promise<SwapRecord | undefined>

  /** Every mapping ever made for the CID (current, replaced and removed), newest first. */
  listSwapHistory(tenantId: string, network: Network, cid: string, options?: CallOptions): Promise<SwapRecord[]>

  /** Removes the current mapping (its history stays). False when there was none. */
  deleteSwap(tenantId: string, network: Network, cid: string, options?: RecordedOptions): Promise<boolean>

  // --- signatures ----------------------------------------------------------------------------

  /** Stores a signature; `CONFLICT` when the CID is already signed for this tenant and network. */
  addSignature(signature: SignatureRecord, options?: RecordedOptions): Promise<SignatureRecord>

  getSignature(
    tenantId: string,
    network: Network,
    cid: string,
    options?: CallOptions,
  ): Promise<SignatureRecord | undefined>

  /** False when there was none. */
  deleteSignature(tenantId: string, network: Network, cid: string, options?: RecordedOptions): Promise<boolean>

  // --- custom domains ------------------------------------------------------------------------

  /**
   * Stores a claim as given: pending, or already `active` (a dedicated gateway name, which the
   * service vouches for itself). `CONFLICT` when the name is active for any tenant, when this
   * tenant already holds a claim to it that has not lapsed at `domain.createdAt`, or when the id
   * exists. Other tenants' pending claims never conflict. Lapsed pending claims of the name are
   * removed first. Of concurrent registrations of one name by one tenant, exactly one succeeds; of
   * concurrent `active` registrations of one name by any tenants, exactly one succeeds.
   */
  createDomain(domain: DomainRecord, options?: RecordedOptions): Promise<DomainRecord>

  /** Tenant-scoped lookup by id. */
  getDomain(tenantId: string, id: string, options?: CallOptions): Promise<DomainRecord | undefined>

  /** The tenant's domains, oldest first. */
  listDomains(tenantId: string, options?: CallOptions): Promise<DomainRecord[]>

  /**
   * For routing requests by `Host`: the active claim of this name (lower case); else the newest
   * pending claim that has not lapsed at `now`; else `undefined`.
   */
  findDomain(domain: string, now: Date, options?: CallOptions): Promise<DomainRecord | undefined>

  /**
   * Marks a claim `active` (clearing its `expiresAt`); returns the record, or `undefined` when
   * absent for the tenant. `CONFLICT` when another claim of the name is already active: of
   * concurrent activations of one name, exactly one succeeds. Activating twice keeps the first
   * `verifiedAt`.
   */
  activateDomain(
    tenantId: string,
    id: string,
    verifiedAt: Date,
    options?: RecordedOptions,
  ): Promise<DomainRecord | undefined>

  deleteDomain(tenantId: string, id: string, options?: RecordedOptions): Promise<boolean>

  // --- expiry --------------------------------------------------------------------------------

  /**
   * Up to `limit` files of any tenant whose `expiresAt` is at or before `now`, oldest expiry
   * first. Deleting them is the caller's job (through `deleteFile`, so blobs are released).
   */
  listExpiredFiles(now: Date, limit: number, options?: CallOptions): Promise<FileRecord[]>
}
