/** `FileService.heldContent`: the contract (its operations are in `held-content-scan.ts`). */
import type { CallOptions } from '@pinfold/interface'
import type { DenyRule } from './rule.js'

/** How the scan of held roots runs: its pace, and what names the lists' contents. */
export interface HeldContentScanOptions extends CallOptions {
  /** Roots read and checked per page (default 200). */
  pageSize?: number | undefined
  /** Pause after each page, so a scan of millions of roots never crowds out requests (default 50 ms). */
  pauseMs?: number | undefined
  /** Told when a page or a lookup fails (it is tried again after a pause). */
  onError?: ((error: unknown) => void) | undefined
  /**
   * A digest of a configured list's bytes as read (`undefined` when unknown): with each list's name
   * and size it names the rules a finished pass checked, so a restart over the same lists runs none.
   */
  listDigest?: ((list: string) => string | undefined) | undefined
}

/** Where the scan stands: what `/metrics` reports. */
export interface HeldContentScanStatus {
  /** A pass over every held root is running or due. */
  scanning: boolean
  /** Roots checked by passes since this process started. */
  rootsChecked: number
  /** Of those, the ones a rule blocks (their tenants told, or found told already). */
  rootsBlocked: number
  /** `content.blocked` entries this process appended (new notices only). */
  noticesRecorded: number
}

/**
 * Tells the tenants whose stored content a deny rule newly blocks (`content.blocked`, once per
 * tenant, CID and rule, across instances and restarts): a rule naming a CID by the holders of its
 * multihash at once, anything else (a double-hashed rule, a list read again whole) by a background
 * pass over every held root, in bounded pages, checked against the lists in force.
 */
export interface HeldContentOperations {
  /**
   * Rules appended to a list in force (a watched file's new lines, a subscription's new bytes, an
   * API add). Only queues work (the options only keep the service's shape: nothing to abort).
   */
  rulesAdded(list: string, rules: readonly DenyRule[], options?: CallOptions): void
  /** A list read again whole, or replaced: every held root is checked again (queued, as above). */
  listReplaced(list: string, options?: CallOptions): void
  /**
   * Starts the background work (once per process that runs jobs): a pass whose saved position
   * names the lists in force resumes there, one that finished with them is not run again, and any
   * other state starts a pass from the first root. Answers the stop, which waits for the page in
   * hand; `options.signal` aborting stops it too.
   */
  start(options?: HeldContentScanOptions): Promise<() => Promise<void>>
  status(options?: CallOptions): HeldContentScanStatus
  /** Resolves once nothing is due or running (tests). */
  settled(options?: CallOptions): Promise<void>
}
