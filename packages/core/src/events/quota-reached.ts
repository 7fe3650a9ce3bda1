import { type Actor, hasCode, isPinfoldError } from '@pinfold/interface'
import type { ServiceContext } from '../service/context.js'
import { tenantEvent } from './new-event.js'
import { onTenantRejection } from './on-rejection.js'

/**
 * How often one tenant's refusals for one limit are recorded, per process. A client looping on a
 * full account is refused on every request; one entry (and one webhook) a minute says the same as
 * thousands, and keeps a refusal from costing a database write each (the refusals of a tenant at
 * its quota would otherwise turn into a write load of their own).
 */
export const QUOTA_EVENT_INTERVAL_MS = 60_000
/** Tenant/limit pairs remembered; past it the oldest is forgotten (a bound on memory, not on the log). */
const REMEMBERED = 10_000

/** The limit a `QUOTA_EXCEEDED` names: `storage`, `file`, `vectorized file` (its message's words). */
function limitOf(message: string): string {
  return /^(.+?) limit reached/.exec(message)?.[1]?.replaceAll(' ', '_') ?? 'quota'
}

/**
 * Wraps a group of operations whose first argument is the acting tenant: a `QUOTA_EXCEEDED` they
 * reject with is recorded as `quota.reached` (at most one a minute per tenant and limit) and then
 * rethrown as it was. The entry records a refusal, not a change, so it is appended on its own; a
 * failure to append it is ignored (the caller's answer is the refusal either way).
 */
export function recordingQuotaRefusals(ctx: Pick<ServiceContext, 'records' | 'clock'>) {
  const lastRecorded = new Map<string, number>()
  async function record(actor: Actor, error: unknown): Promise<void> {
    if (!isPinfoldError(error)) return
    const limit = limitOf(error.message)
    const key = JSON.stringify([actor.tenantId, limit])
    const now = ctx.clock.now().getTime()
    const last = lastRecorded.get(key)
    if (last !== undefined && now - last < QUOTA_EVENT_INTERVAL_MS) return
    lastRecorded.delete(key)
    lastRecorded.set(key, now)
    if (lastRecorded.size > REMEMBERED) lastRecorded.delete(lastRecorded.keys().next().value!)
    const event = tenantEvent(actor, {
      type: 'quota.reached',
      target: { kind: 'tenant', id: actor.tenantId },
      data: { limit, message: error.message },
    })
    // awaited, so the refusal's answer comes after its entry; a failure is not the caller's concern
    await ctx.records.events.appendEvents([event]).catch(() => {})
  }

  return <T extends object>(operations: T): T =>
    onTenantRejection(operations, async (actor, error) => {
      if (hasCode(error, 'QUOTA_EXCEEDED')) await record(actor, error)
    })
}
