/** `FileService.health`: the contract (its operations are in `health.ts`). */

import type { CallOptions } from '@pinfold/interface'

/** One store's answer to a readiness probe. */
export type HealthState = 'ok' | 'failed'

export interface HealthReport {
  /** True when both stores answered. */
  ok: boolean
  /** Each store's state; never the error, which may carry connection details. */
  checks: { records: HealthState; blobs: HealthState }
  /**
   * Each deny list in force (holding a rule, or failing to be read; present when there is one): its rules, and `stale` when its last
   * read failed (the last good version stays in force; readiness does not fail for it).
   */
  denylists?: { list: string; rules: number; state: 'ok' | 'stale' }[]
}

export interface HealthOperations {
  /**
   * Readiness: one cheap read of the record store and one of the blob store, side by side. A store
   * that fails (or does not answer before the signal aborts) is `failed` in the report; the method
   * itself does not reject.
   */
  check(options?: CallOptions): Promise<HealthReport>
}
