import type { ContentBlockedEvent, Denylists, HeldContentScanStatus, ListProblem } from '@pinfold/core'
import { Counter, Gauge, type Registry } from 'prom-client'

/**
 * Distinct (list, line) pairs refusals are counted under; past them a refusal counts under line
 * `other`. Lines are the rules that actually refused something, so few in practice, but a client
 * asking for many blocked CIDs must not grow the series without a bound.
 */
const LINE_SERIES_LIMIT = 1_000

/** Deny-list metrics: rules in force, lists whose last read failed, malformed lines, refusals. */
export function watchDenylists(registers: Registry[]) {
  let watched: Denylists | undefined
  new Gauge({
    name: 'pinfold_denylist_rules',
    help: 'Rules in force, by deny list (its last good version when a read failed).',
    labelNames: ['list'] as const,
    registers,
    // each worker of a cluster reads the same lists: their figure once
    aggregator: 'max',
    collect() {
      this.reset()
      for (const list of watched?.lists ?? []) this.set({ list: list.name }, list.rules)
    },
  })
  new Gauge({
    name: 'pinfold_denylist_stale',
    help: '1 when the last read of a deny list failed (its last good version stays in force), else 0.',
    labelNames: ['list'] as const,
    registers,
    // each worker of a cluster reads the same lists: their figure once
    aggregator: 'max',
    collect() {
      this.reset()
      for (const list of watched?.lists ?? []) {
        this.set({ list: list.name }, watched?.failure(list.name) === undefined ? 0 : 1)
      }
    },
  })
  const malformed = new Counter({
    name: 'pinfold_denylist_malformed_lines_total',
    help: 'Deny-list lines skipped as malformed (each is logged with its line number), by list.',
    labelNames: ['list'] as const,
    registers,
  })
  const refusals = new Counter({
    name: 'pinfold_denylist_refusals_total',
    help: 'Requests, blocks, pins and announcements refused by a deny rule, by list, line and where (gateway, bitswap, routing, pin, download).',
    labelNames: ['list', 'line', 'site'] as const,
    registers,
  })
  let scanStatus: (() => HeldContentScanStatus) | undefined
  new Gauge({
    name: 'pinfold_denylist_scan_running',
    help: '1 while a pass of the held-content scan (every stored root checked against the deny lists) is running or due, else 0.',
    registers,
    // one worker of a cluster runs the scan: the others report 0
    aggregator: 'max',
    collect() {
      this.set(scanStatus?.().scanning ? 1 : 0)
    },
  })
  new Gauge({
    name: 'pinfold_denylist_scan_roots',
    help: 'Stored roots the held-content scan checked since start (`checked`), those a rule blocks (`blocked`), and content.blocked entries it appended (`told`).',
    labelNames: ['count'] as const,
    registers,
    aggregator: 'sum',
    collect() {
      const status = scanStatus?.()
      this.set({ count: 'checked' }, status?.rootsChecked ?? 0)
      this.set({ count: 'blocked' }, status?.rootsBlocked ?? 0)
      this.set({ count: 'told' }, status?.noticesRecorded ?? 0)
    },
  })
  const lines = new Set<string>()
  return {
    /** Reads where the held-content scan stands at each scrape. */
    heldContentScan(status: () => HeldContentScanStatus): void {
      scanStatus = status
    },
    /** Reads the lists (and their read failures) at each scrape. */
    denylists(lists: Denylists): void {
      watched = lists
    },
    contentBlocked(event: ContentBlockedEvent): void {
      const key = `${event.list}\n${event.line}`
      if (!lines.has(key) && lines.size < LINE_SERIES_LIMIT) lines.add(key)
      const line = lines.has(key) ? String(event.line) : 'other'
      refusals.inc({ list: event.list, line, site: event.site })
    },
    malformedLine(problem: ListProblem): void {
      malformed.inc({ list: problem.list })
    },
  }
}
