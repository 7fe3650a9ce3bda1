import { PinfoldError } from '@pinfold/interface'
import type { CID } from 'multiformats/cid'
import type { Denylists, DenyMatch } from './denylists.js'
import type { DenyQuery } from './query.js'

/** Where content was refused: the label metrics and logs count refusals by. */
export type RefusalSite = 'gateway' | 'bitswap' | 'routing' | 'pin' | 'download'

/** One refusal, as the server logs and counts it. */
export interface ContentBlockedEvent extends DenyMatch {
  readonly site: RefusalSite
  /** The CID (or `/ipns/` name) refused, as asked for. */
  readonly target: string
  readonly path: string
}

/**
 * The deny lists as the operations apply them: every check runs against the in-memory lists at
 * the moment it is asked (per request, per block), never against an answer kept from earlier, so
 * a rule applies to the next request after its line is read and nothing needs invalidating.
 * `gatewayTenant` is set for requests arriving on that tenant's own gateway host: its own list
 * applies there too (`Denylists.check`).
 */
export interface ContentPolicy {
  readonly lists: Denylists
  /** Whether a tenant's own reads (private downloads, its files' content) are refused too. */
  readonly privateReads: boolean
  /** Throws `BLOCKED` (and reports it) when a rule refuses the query. */
  enforce(query: DenyQuery, site: RefusalSite, gatewayTenant?: string): void
  /** The same for one block, by its multihash. */
  enforceCid(cid: CID, site: RefusalSite, gatewayTenant?: string): void
  /** Whether a rule refuses it, reported as a refusal at `site` when it does (no throw). */
  refuses(query: DenyQuery, site: RefusalSite): boolean
  /** The `BLOCKED` error for this block, reported, or `undefined` when no rule refuses it. */
  refusalOf(cid: CID, site: RefusalSite): PinfoldError | undefined
  /** Whether any list holds a rule: checks that cost a read (a whole file's blocks) are skipped without one. */
  readonly active: boolean
  /** The same on `gatewayTenant`'s gateway, where its own list counts too. */
  activeFor(gatewayTenant: string | undefined): boolean
}

export function createContentPolicy(
  lists: Denylists,
  privateReads: boolean,
  report: (event: ContentBlockedEvent) => void,
): ContentPolicy {
  function refusal(query: DenyQuery, site: RefusalSite, gatewayTenant?: string): PinfoldError | undefined {
    const match = lists.check(query, gatewayTenant)
    if (!match) return undefined
    const target = query.namespace === 'ipfs' ? query.cid.toString() : `/ipns/${query.name}`
    const path = query.path ?? ''
    report({ ...match, site, target, path })
    const what = path === '' ? target : `${target}/${path}`
    const whose = match.tenant === undefined ? "the operator's" : "this gateway's"
    return new PinfoldError('BLOCKED', `${what} is blocked by ${whose} deny list (${match.list}:${match.line})`, {
      details: { status: match.status, list: match.list, line: match.line, target, path },
    })
  }
  return {
    lists,
    privateReads,
    enforce(query, site, gatewayTenant) {
      const error = refusal(query, site, gatewayTenant)
      if (error) throw error
    },
    enforceCid(cid, site, gatewayTenant) {
      const error = refusal({ namespace: 'ipfs', cid }, site, gatewayTenant)
      if (error) throw error
    },
    refuses: (query, site) => refusal(query, site) !== undefined,
    refusalOf: (cid, site) => refusal({ namespace: 'ipfs', cid }, site),
    get active() {
      return lists.active
    },
    activeFor: (gatewayTenant) => lists.activeFor(gatewayTenant),
  }
}
