import { subtle } from 'node:crypto'
import { vi } from 'vitest'

/**
 * Makes the thread pool's SHA-256 digests (`crypto.subtle.digest`) settle late, each after
 * `delayOf(n)` ms (n: the digest's index), failing those `fail` picks; counts the digests started,
 * settled and most in flight at once. Undo with `vi.restoreAllMocks()`.
 */
export function delayedDigests(delayOf: (n: number) => number, fail?: (n: number) => boolean) {
  const digest = subtle.digest.bind(subtle)
  const seen = { started: 0, settled: 0, mostInFlight: 0 }
  vi.spyOn(subtle, 'digest').mockImplementation(async (algorithm, data) => {
    const n = seen.started++
    seen.mostInFlight = Math.max(seen.mostInFlight, seen.started - seen.settled)
    const result = digest(algorithm, data) // copies `data` now, as the real one does
    await new Promise((resolve) => setTimeout(resolve, delayOf(n)))
    seen.settled++
    if (fail?.(n)) throw new Error(`digest ${n} failed`)
    return result
  })
  return seen
}
