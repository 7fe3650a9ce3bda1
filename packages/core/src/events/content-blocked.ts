import { type Actor, isPinfoldError, type PinfoldError } from '@pinfold/interface'
import type { RefusalSite } from '../denylist/content-policy.js'
import type { ServiceContext } from '../service/context.js'
import { type EventFacts, tenantEvent } from './new-event.js'
import { onTenantRejection } from './on-rejection.js'

/** Tenant/CID/rule triples remembered; past it the oldest is forgotten (a bound on memory, not on the log). */
const REMEMBERED = 10_000

/**
 * The facts of a `content.blocked` event: the CID a deny rule refused, and the rule (its list and
 * line; an operator rule being added has no line yet and is named by its id) that refused it.
 * `target` is the CID (the rule names content, not a file); `data` adds where it was refused
 * (`rule`: an operator rule added over content already held; `scan`: a list's rule found over held
 * content by the deny lists' background scan, `held-content-scan.ts`) and, for a pin, which request.
 */
export function contentBlockedFacts(
  cid: string,
  rule: { list: string; line?: number | undefined },
  site: RefusalSite | 'upload' | 'rule' | 'scan',
  data: Record<string, unknown> = {},
): EventFacts {
  const line = rule.line === undefined ? {} : { line: rule.line }
  return {
    type: 'content.blocked',
    target: { kind: 'cid', id: cid },
    data: { cid, list: rule.list, ...line, site, ...data },
  }
}

/** The rule a `BLOCKED` error names, and what it refused; `undefined` for any other error. */
export function blockedBy(error: unknown): { cid: string; list: string; line: number } | undefined {
  if (!isPinfoldError(error) || error.code !== 'BLOCKED') return undefined
  const { target, list, line } = (error as PinfoldError).details ?? {}
  if (typeof target !== 'string' || typeof list !== 'string' || typeof line !== 'number') return undefined
  return { cid: target, list, line }
}

/**
 * Wraps a group of ingest operations whose first argument is the acting tenant (pin by CID and the
 * Pinning Service API, which map onto it): a `BLOCKED` they reject with (the CID asked for is on a
 * deny list) is recorded as `content.blocked` for that tenant, once per tenant, CID and rule in
 * this process, and rethrown as it was. A client retrying a blocked CID is refused each time; one
 * entry (and one webhook) says it, and a refusal never costs a write per request. The entry
 * records a refusal, not a change, so it is appended on its own; a failure to append it is ignored
 * (the caller's answer is the refusal either way).
 */
export function recordingBlockedIngest(ctx: Pick<ServiceContext, 'records'>, site: RefusalSite) {
  const recorded = new Set<string>()
  async function record(actor: Actor, error: unknown): Promise<void> {
    const blocked = blockedBy(error)
    if (!blocked) return
    const key = JSON.stringify([actor.tenantId, blocked.cid, blocked.list, blocked.line])
    if (recorded.has(key)) return
    recorded.add(key)
    if (recorded.size > REMEMBERED) recorded.delete(recorded.values().next().value!)
    const event = tenantEvent(actor, contentBlockedFacts(blocked.cid, blocked, site))
    // awaited, so the refusal's answer comes after its entry
    await ctx.records.events.appendEvents([event]).catch(() => recorded.delete(key))
  }

  return <T extends object>(operations: T): T => onTenantRejection(operations, record)
}
