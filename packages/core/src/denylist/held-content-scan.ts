import { createHash } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import type { BlockedNotice, FileRecord } from '@pinfold/interface'
import type { CID } from 'multiformats/cid'
import { contentBlockedFacts } from '../events/content-blocked.js'
import { systemEvent } from '../events/new-event.js'
import type { ServiceContext } from '../service/context.js'
import { parseAnyCid } from './any-cid.js'
import { OPERATOR_LIST } from './api.js'
import type { DenyMatch } from './denylists.js'
import type { HeldContentOperations, HeldContentScanOptions } from './held-content-api.js'
import { holderEntries, MAX_FILE_IDS, straddlingTenant } from './holder-entries.js'
import { pathMatches } from './path-spec.js'
import type { DenyRule } from './rule.js'

/** Plain rules waiting for their holder lookup; past it one pass over every root does the same work. */
const MAX_QUEUED_LOOKUPS = 10_000
/** After a failed page or lookup, the wait before it is tried again. */
const RETRY_MS = 5_000
/** The audit log's actor for these entries (`system`, `denylist`): no request made them. */
const COMPONENT = 'denylist'

export type HeldContentSettings = Pick<ServiceContext, 'records' | 'deny' | 'denyHolderPage'>

/** A stored root's CID, or `undefined` when it does not parse (it names nothing a rule could block). */
function parsed(cid: string): CID | undefined {
  try {
    return parseAnyCid(cid)
  } catch {
    return undefined
  }
}

/** The first files of each CID, as many as one entry names: what a tenant's entry needs of them. */
function namedInOneEntry(files: readonly FileRecord[]): FileRecord[] {
  const counts = new Map<string, number>()
  return files.filter((file) => {
    const seen = (counts.get(file.cid) ?? 0) + 1
    counts.set(file.cid, seen)
    return seen <= MAX_FILE_IDS
  })
}

/**
 * The background half of `content.blocked`: what a rule blocks among roots already stored. A rule
 * naming a CID (root and everything below) is answered by the holders of its multihash; a
 * double-hashed rule cannot be reversed, so it (and a list read again whole, whose new rules are
 * not known) makes a pass: every held root, a page at a time after a saved cursor, checked against
 * the lists in force (`Denylists.check` hashes the root as a request's CID is hashed, so allow
 * rules and "the later line wins" hold as for requests). Each blocked root's tenants get one entry
 * per (tenant, CID, list, line), recorded with its de-dup row in one step, so instances and
 * restarts never tell one twice. The operator's own `/ipfs/` rules are no exception: their add
 * tells the first page of holders in its transaction with the same de-dup rows
 * (`blocked-holders.ts`), and the lookup here tells the rest, finding those told.
 */
export function createHeldContentScan(ctx: HeldContentSettings): HeldContentOperations {
  /** Multihashes (latin1) of plain rules appended since the last lookup. */
  const lookups = new Set<string>()
  let passDue = false
  /** The pass under way: the lists it checks against (their fingerprint) and the last root checked. */
  let pass: { fingerprint: string; cursor: string | undefined } | undefined
  /** The lists the last finished pass checked against: a pass over the same lists would find nothing new. */
  let finished: string | undefined
  let started = false
  let idle = true
  const waiters: (() => void)[] = []
  let wake: (() => void) | undefined
  let rootsChecked = 0
  let rootsBlocked = 0
  let noticesRecorded = 0

  const due = () => lookups.size > 0 || passDue || pass !== undefined

  function poke(): void {
    const resume = wake
    wake = undefined
    resume?.()
  }

  async function fingerprint(listDigest: HeldContentScanOptions['listDigest']): Promise<string> {
    const hash = createHash('sha256')
    for (const list of ctx.deny.lists.lists) {
      const digest = list.name === OPERATOR_LIST ? null : (listDigest?.(list.name) ?? null)
      hash.update(`${JSON.stringify([list.name, list.rules, digest])}\n`)
    }
    for (const rule of await ctx.records.denyRules.listDenyRules()) hash.update(`${rule.line} ${rule.rule}\n`)
    return hash.digest('hex')
  }

  /** Tells the tenants of these files whose root a rule now blocks (each CID spelling checked on its own). */
  async function tell(holders: readonly FileRecord[]): Promise<void> {
    const matches = new Map<string, DenyMatch | undefined>()
    const matchOf = (cid: string) => {
      if (!matches.has(cid)) {
        const parsedCid = parsed(cid)
        matches.set(cid, parsedCid && ctx.deny.lists.check({ namespace: 'ipfs', cid: parsedCid }))
      }
      return matches.get(cid)
    }
    const notices: BlockedNotice[] = []
    for (const { tenantId, cid, fileIds } of holderEntries(holders)) {
      const match = matchOf(cid)
      if (!match) continue
      const facts = contentBlockedFacts(cid, match, 'scan', { fileIds })
      notices.push({
        tenantId,
        cid,
        list: match.list,
        line: match.line,
        event: systemEvent(tenantId, facts, COMPONENT),
      })
    }
    if (notices.length === 0) return
    noticesRecorded += (await ctx.records.denyRules.recordBlockedNotices(notices)).length
  }

  /**
   * Tells every holder of a root (only the files naming it as `spelling`, when given), a page at a
   * time, so a root held by any number of tenants is never all in memory. A tenant's files are
   * consecutive in the pages' order: the last tenant of a full page may have more on the next, so
   * its files (as many as an entry names) are carried over and told with them, in one entry.
   */
  async function tellHolders(multihash: Uint8Array, spelling?: string) {
    const pageSize = ctx.denyHolderPage
    let after: FileRecord | undefined
    let carried: FileRecord[] = []
    for (;;) {
      const page = await ctx.records.blocks.listRootHolders(multihash, pageSize, { after })
      const files = [...carried, ...page.filter((file) => spelling === undefined || file.cid === spelling)]
      const more = page.length === pageSize
      const last = straddlingTenant(page, pageSize)
      carried = namedInOneEntry(files.filter((file) => file.tenantId === last))
      await tell(files.filter((file) => file.tenantId !== last))
      if (!more) return
      after = page.at(-1)
    }
  }

  async function lookUpHolders(): Promise<void> {
    for (const key of [...lookups]) {
      await tellHolders(Buffer.from(key, 'latin1'))
      lookups.delete(key)
    }
  }

  /** One page of the pass (starting one when it is due); `false` once the pass is over. */
  async function passPage(options: HeldContentScanOptions): Promise<boolean> {
    if (!pass) {
      passDue = false
      const current = await fingerprint(options.listDigest)
      // a list read again whole with the same bytes (a subscription that answers no Range)
      if (current === finished) return false
      pass = { fingerprint: current, cursor: undefined }
    }
    const { fingerprint: current, cursor } = pass
    // without a rule in force nothing is blocked: the pass is over at once
    const roots = ctx.deny.lists.active ? await ctx.records.blocks.listHeldRoots(cursor, options.pageSize ?? 200) : []
    for (const root of roots) {
      const cid = parsed(root)
      // a check in memory for every root; the store is asked only for the holders of a blocked one
      if (!cid || !ctx.deny.lists.check({ namespace: 'ipfs', cid })) continue
      rootsBlocked++
      await tellHolders(cid.multihash.bytes, root)
    }
    rootsChecked += roots.length
    const over = roots.length < (options.pageSize ?? 200)
    const next = over ? null : roots.at(-1)!
    await ctx.records.denyRules.putBlockedScan({ fingerprint: current, cursor: next })
    pass = over ? undefined : { fingerprint: current, cursor: next! }
    if (over) finished = current
    return !over
  }

  async function run(options: HeldContentScanOptions, signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      try {
        if (lookups.size > 0) await lookUpHolders()
        else if (passDue || pass) {
          if (await passPage(options)) await sleep(options.pauseMs ?? 50, undefined, { signal })
        } else {
          idle = true
          for (const settle of waiters.splice(0)) settle()
          await new Promise<void>((resolve) => {
            wake = resolve
          })
          idle = false
        }
      } catch (error) {
        if (signal.aborted) return
        options.onError?.(error)
        await sleep(RETRY_MS, undefined, { signal }).catch(() => {})
      }
    }
  }

  return {
    rulesAdded(_list, rules) {
      for (const rule of rules) wanted(rule)
      if (lookups.size > MAX_QUEUED_LOOKUPS) {
        lookups.clear()
        passDue = true
      }
      poke()
    },

    listReplaced() {
      passDue = true
      poke()
    },

    async start(options = {}) {
      if (started) throw new Error('the held-content scan is started once')
      started = true
      idle = false
      // what the lists held before now is compared with the saved state instead
      lookups.clear()
      passDue = false
      const [saved, current] = await Promise.all([
        ctx.records.denyRules.getBlockedScan(),
        fingerprint(options.listDigest),
      ])
      if (!saved || saved.fingerprint !== current) pass = { fingerprint: current, cursor: undefined }
      else if (saved.cursor !== null) pass = { fingerprint: current, cursor: saved.cursor }
      else finished = current
      const stop = new AbortController()
      options.signal?.addEventListener('abort', () => {
        stop.abort()
        poke()
      })
      const running = run(options, stop.signal)
      return async () => {
        stop.abort()
        poke()
        await running
      }
    },

    status: () => ({ scanning: passDue || pass !== undefined, rootsChecked, rootsBlocked, noticesRecorded }),

    settled() {
      if (!started || (idle && !due())) return Promise.resolve()
      return new Promise((resolve) => waiters.push(resolve))
    },
  }

  /** Queues what a rule needs: a lookup by its CID, a pass, or nothing (`!`, a path, an IPNS name). */
  function wanted(rule: DenyRule): void {
    const { target } = rule
    // `!` only ever unblocks: nothing to tell (see docs/operations.md, "Deny lists")
    if (rule.allow || target.kind === 'ipns') return
    if (target.kind === 'double-hash') passDue = true
    // a rule on a path below a root blocks that path, not the root
    else if (pathMatches(target.path, '')) lookups.add(target.key)
  }
}
