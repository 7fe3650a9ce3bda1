import { pathMatches } from './path-spec.js'
import type { PreparedQuery } from './query.js'
import type { DenyRule, ListHeader, PathSpec } from './rule.js'

/** A rule as the index keeps it: where it is and what it says, not the text (a list may hold millions). */
export interface IndexedRule {
  readonly line: number
  readonly allow: boolean
  readonly hints: Readonly<Record<string, string>>
}

interface PathRule extends IndexedRule {
  readonly path: PathSpec
}

/**
 * A double-hashed rule without hints is one number, `line * 2 + allow`: a badbits-sized list is
 * millions of them, and a number in a map costs no object.
 */
type HashedRule = number | IndexedRule

export const DEFAULT_HEADER: ListHeader = Object.freeze({ version: 1, hints: Object.freeze({}) })

/**
 * One list's rules, indexed by what a request can be looked up by: the multihash (or IPNS name) of
 * `/ipfs/` and `/ipns/` rules, and the digest of double-hashed ones, one map per hash function.
 * Within a list the last matching line wins; an allow rule (`!`) that wins means "not blocked".
 */
export class ListIndex {
  header: ListHeader = DEFAULT_HEADER
  rules = 0
  readonly #byCid = new Map<string, PathRule[]>()
  readonly #byName = new Map<string, PathRule[]>()
  readonly #legacy = new Map<string, HashedRule>()
  readonly #modern = new Map<number, Map<string, HashedRule>>()

  constructor(readonly name: string) {}

  add(rule: DenyRule, line: number): void {
    const { target, allow, hints } = rule
    this.rules++
    if (target.kind === 'double-hash') {
      const value: HashedRule = Object.keys(hints).length === 0 ? line * 2 + (allow ? 1 : 0) : { line, allow, hints }
      // a later line with the same hash matches exactly what the earlier one did, so it replaces it
      if (target.form === 'legacy') this.#legacy.set(target.key, value)
      else {
        const byDigest = this.#modern.get(target.code) ?? new Map<string, HashedRule>()
        this.#modern.set(target.code, byDigest)
        byDigest.set(target.key, value)
      }
      return
    }
    const index = target.kind === 'ipfs' ? this.#byCid : this.#byName
    const entry: PathRule = { line, allow, hints, path: target.path }
    const existing = index.get(target.key)
    if (existing) existing.push(entry)
    else index.set(target.key, [entry])
  }

  /** The last line of this list that matches the query, if any. */
  match(query: PreparedQuery): IndexedRule | undefined {
    let best: IndexedRule | undefined
    const byKey = (query.namespace === 'ipfs' ? this.#byCid : this.#byName).get(query.key)
    if (byKey) {
      for (const rule of byKey) {
        if ((!best || rule.line > best.line) && pathMatches(rule.path, query.path)) best = rule
      }
    }
    if (this.#legacy.size > 0) best = later(best, this.#legacy.get(query.legacyKey()))
    for (const [code, byDigest] of this.#modern) best = later(best, byDigest.get(query.modernKey(code)))
    return best
  }
}

function later(best: IndexedRule | undefined, found: HashedRule | undefined): IndexedRule | undefined {
  if (found === undefined) return best
  const rule =
    typeof found === 'number' ? { line: Math.floor(found / 2), allow: found % 2 === 1, hints: NO_HINTS } : found
  return !best || rule.line > best.line ? rule : best
}

const NO_HINTS: Readonly<Record<string, string>> = Object.freeze({})
