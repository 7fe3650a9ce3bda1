import { PinfoldError } from '@pinfold/interface'

/** Pinata's plans refuse with 429 past their rate; a full share of the queue is answered alike. */
export function pinQueueFull(cap: number, cause: unknown): PinfoldError {
  return new PinfoldError(
    'RATE_LIMITED',
    `pin queue full: ${cap} pin requests of this account are queued or running; wait for some to finish or delete some`,
    { cause, details: { retryAfterSeconds: 60 } },
  )
}
