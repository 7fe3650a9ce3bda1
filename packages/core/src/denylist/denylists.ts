import type { CID } from 'multiformats/cid'
import { isNeverBlocked } from './empty-content.js'
import { type IndexedRule, ListIndex } from './list-index.js'
import { type DenyQuery, PreparedQuery } from './query.js'

/** What blocked a request: the list and line to name in logs and metrics, and the status to answer. */
export interface DenyMatch {
  readonly list: string
  readonly line: number
  /** The rule's `gateway_status` hint, else its list header's, else 410 Gone. */
  readonly status: number
  readonly hints: Readonly<Record<string, string>>
  /** Set when the rule is in this tenant's own list (a request on its gateway), not a list of the operator's. */
  readonly tenant?: string
}

/**
 * Every deny list in force, in order: when rules of several lists match, the one of the later list
 * wins (within a list, the later line), and a winning allow rule (`!`) means not blocked. Lists are
 * replaced whole (a refresh builds a new index and swaps it in) or grow in place (appended lines);
 * each check is a few map lookups in memory, so it runs per request and per block, never cached.
 */
export class Denylists {
  #lists: ListIndex[] = []
  /** Tenants' own lists, each applied only on that tenant's gateway hosts; replaced whole on a reload. */
  #tenantLists: ReadonlyMap<string, ListIndex> = new Map()
  /** Lists replaced or removed so far (rules only ever grow in place otherwise). */
  #swaps = 0
  readonly #failures = new Map<string, string>()
  /** The query every check prepares (checks are synchronous: one at a time). */
  readonly #query = new PreparedQuery()

  /**
   * Records that the last read of a list failed (`undefined`: it read again). Its last good
   * version stays in force; readiness detail and metrics say it is stale.
   */
  setFailure(name: string, error: string | undefined): void {
    if (error === undefined) this.#failures.delete(name)
    else this.#failures.set(name, error)
  }

  /** Why the last read of a list failed, while it is stale. */
  failure(name: string): string | undefined {
    return this.#failures.get(name)
  }

  /** The list of that name, created empty at the end of the order when it is new. */
  list(name: string): ListIndex {
    let index = this.#lists.find((list) => list.name === name)
    if (!index) {
      index = new ListIndex(name)
      this.#lists = [...this.#lists, index]
    }
    return index
  }

  /** Puts a freshly read list in place of the one of its name (or at the end). */
  replace(index: ListIndex): void {
    const at = this.#lists.findIndex((list) => list.name === index.name)
    this.#lists = at < 0 ? [...this.#lists, index] : this.#lists.with(at, index)
    this.#swaps++
  }

  remove(name: string): void {
    this.#lists = this.#lists.filter((list) => list.name !== name)
    this.#swaps++
  }

  /**
   * Changes whenever what the lists refuse may have changed: a list replaced or removed, or a rule
   * appended to one. For answers kept beyond one request (the gateway's answer cache), which hold
   * only while this stays the same.
   */
  get version(): string {
    let rules = 0
    for (const list of this.#lists) rules += list.rules
    return `${this.#swaps}:${rules}`
  }

  get lists(): readonly ListIndex[] {
    return this.#lists
  }

  /** Puts every tenant's list in place at once (by tenant id; a tenant left out has none). */
  replaceTenantLists(lists: ReadonlyMap<string, ListIndex>): void {
    this.#tenantLists = lists
    this.#swaps++
  }

  /** The tenant's own list, when it has rules. */
  tenantList(tenantId: string): ListIndex | undefined {
    return this.#tenantLists.get(tenantId)
  }

  /** Whether any list holds a rule: without one nothing is refused, and no query is hashed. */
  get active(): boolean {
    return this.#lists.some((list) => list.rules > 0)
  }

  /** Whether anything can be refused on this tenant's gateway (the operator's lists, or its own). */
  activeFor(tenantId: string | undefined): boolean {
    return this.active || (tenantId !== undefined && (this.#tenantLists.get(tenantId)?.rules ?? 0) > 0)
  }

  /** Is this block refused (on `tenantId`'s gateway)? By its multihash: a rule on any CID of the same bytes blocks it. */
  checkCid(cid: CID, tenantId?: string): DenyMatch | undefined {
    return this.check({ namespace: 'ipfs', cid }, tenantId)
  }

  /**
   * Is this CID (and path below it) or IPNS name refused? With `tenantId` (a request on that
   * tenant's gateway host), the tenant's own list applies too, after the operator's: it can refuse
   * more there, but its `!` rules never serve what the operator's lists refuse.
   */
  check(query: DenyQuery, tenantId?: string): DenyMatch | undefined {
    const own = tenantId === undefined ? undefined : this.#tenantLists.get(tenantId)
    const operator = this.active
    if (!operator && !own) return undefined
    if (query.namespace === 'ipfs' && isNeverBlocked(query.cid.multihash.bytes)) return undefined
    const prepared = this.#query.prepare(query)
    for (let at = operator ? this.#lists.length - 1 : -1; at >= 0; at--) {
      const list = this.#lists[at]!
      const rule = list.match(prepared)
      if (!rule) continue
      if (rule.allow) break
      return matchOf(list, rule)
    }
    const rule = own?.match(prepared)
    return rule && !rule.allow ? { ...matchOf(own!, rule), tenant: tenantId! } : undefined
  }
}

function matchOf(list: ListIndex, rule: IndexedRule): DenyMatch {
  const status = Number(rule.hints.gateway_status ?? list.header.hints.gateway_status)
  return {
    list: list.name,
    line: rule.line,
    status: Number.isInteger(status) && status >= 400 && status <= 599 ? status : 410,
    hints: rule.hints,
  }
}
