/** `FileService.expiry`: the contract (its operations are in `expiry.ts`). */

import type { CallOptions } from '@pinfold/interface'

export interface ExpiryOperations {
  /**
   * Deletes every file whose `expiresAt` is at or before `now` (default: the service clock), through
   * the normal delete path so blobs no file references any more are released. Returns how many files
   * it deleted. Safe to run from several processes at once: a file deleted by another sweeper is
   * skipped.
   */
  sweep(now?: Date, options?: CallOptions): Promise<number>
}
