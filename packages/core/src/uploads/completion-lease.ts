import { PinfoldError } from '@pinfold/interface'
import type { ServiceContext } from '../service/context.js'

/** What a completion lease uses of the service. */
export type CompletionLeaseSettings = Pick<ServiceContext, 'records' | 'clock' | 'resumable'>

/** A completion's hold on its claim, renewed in the background while the completion runs. */
export interface CompletionLeaseHold {
  /** Aborts when the caller's signal does, and when the claim is lost (see `lost`). */
  signal: AbortSignal
  /** Whether a renewal found the claim no longer this completion's: another request took it over. */
  readonly lost: boolean
  /** Stops renewing: the completion is over, one way or the other. */
  stop(): void
}

/**
 * Keeps `owner`'s completion claim on session `id` alive while its completion runs, renewing the
 * lease every third of its length: it runs out only when the process dies, or stalls for longer
 * than a lease. A renewal that finds the claim taken over aborts the completion, which must not go
 * on with work a new holder is doing (it could not record a second file anyway: the record's id is
 * the session's). A renewal that fails (the database briefly away) is tried again at the next turn:
 * at worst the lease runs out and another request takes over, which is safe.
 */
export function holdCompletionLease(
  ctx: CompletionLeaseSettings,
  id: string,
  owner: string,
  callerSignal: AbortSignal | undefined,
): CompletionLeaseHold {
  const leaseMs = ctx.resumable.completionLeaseMs
  const controller = new AbortController()
  const follow = () => controller.abort(callerSignal?.reason)
  if (callerSignal?.aborted) follow()
  else callerSignal?.addEventListener('abort', follow, { once: true })
  let lost = false
  let stopped = false
  let timer: ReturnType<typeof setTimeout> | undefined
  const renew = async () => {
    const until = new Date(ctx.clock.now().getTime() + leaseMs)
    const kept = await ctx.records.uploadSessions.renewUploadCompletion(id, owner, until).catch(() => true)
    if (stopped) return
    if (kept) return schedule()
    lost = true
    controller.abort(new PinfoldError('CONFLICT', 'another request took over the completion of this upload'))
  }
  const schedule = () => {
    timer = setTimeout(() => void renew(), leaseMs / 3)
    // a completion in flight does not keep a process from exiting
    timer.unref?.()
  }
  schedule()
  return {
    signal: controller.signal,
    get lost() {
      return lost
    },
    stop() {
      stopped = true
      clearTimeout(timer)
      callerSignal?.removeEventListener('abort', follow)
    },
  }
}
