import { type DigestRule, DigestTable } from './digest-table.js'
import { pathMatches } from './path-spec.js'
import type { PreparedQuery } from './query.js'
import type { DenyRule, ListHeader, PathSpec } from './rule.js'
import { digestWidth } from './rule-hashes.js'

/** A rule as the index keeps it: where it is and what it says, not the text (a list may hold millions). */
export interface IndexedRule {
  readonly line: number
  readonly allow: boolean
  readonly hints: Readonly<Record<string, string>>
}

interface PathRule extends IndexedRule {
  readonly path: PathSpec
}

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
  // double-hashed rules, badbits' millions, in flat arrays (`DigestTable`), one table per hash function
  readonly #legacy = new DigestTable(32)
  // an array, not a map: iterating a map's entries allocates per lookup
  readonly #modern: { readonly code: number; readonly table: DigestTable }[] = []

  constructor(readonly name: string) {}

  add(rule: DenyRule, line: number): void {
    const { target, allow, hints } = rule
    this.rules++
    if (target.kind === 'double-hash') {
      const value: DigestRule = Object.keys(hints).length === 0 ? { line, allow } : { line, allow, hints }
      // a later line with the same hash matches exactly what the earlier one did, so it replaces it
      if (target.form === 'legacy') this.#legacy.set(target.key, value)
      else {
        let modern = this.#modern.find((each) => each.code === target.code)
        if (!modern) {
          modern = { code: target.code, table: new DigestTable(digestWidth(target.code)) }
          this.#modern.push(modern)
        }
        modern.table.set(target.key, value)
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
    const index = query.namespace === 'ipfs' ? this.#byCid : this.#byName
    // the key (a string made from the multihash) only when the list has such rules: badbits has none
    const byKey = index.size === 0 ? undefined : index.get(query.key)
    if (byKey) {
      for (const rule of byKey) {
        if ((!best || rule.line > best.line) && pathMatches(rule.path, query.path)) best = rule
      }
    }
    if (this.#legacy.size > 0) best = later(best, query.legacyRule(this.#legacy))
    for (let i = 0; i < this.#modern.length; i++) {
      const { code, table } = this.#modern[i]!
      best = later(best, query.modernRule(code, table))
    }
    return best
  }
}

function later(best: IndexedRule | undefined, found: DigestRule | undefined): IndexedRule | undefined {
  if (found === undefined || (best && found.line <= best.line)) return best
  return { line: found.line, allow: found.allow, hints: found.hints ?? NO_HINTS }
}

const NO_HINTS: Readonly<Record<string, string>> = Object.freeze({})
