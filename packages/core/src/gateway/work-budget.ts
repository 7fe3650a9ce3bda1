import type { ContentRecord } from '@pinfold/interface'
import { PinfoldError } from '@pinfold/interface'

/**
 * How much work one gateway request may spend walking a DAG, in block reads and in the time those
 * reads take. A DAG whose nodes link to the same child many times (a few KB of blocks describing
 * terabytes, or millions of empty leaves) would otherwise make one request walk without end; and
 * where each read is slow (a database round trip), a bound in reads alone does not bound the
 * time. Both allowances grow with what the content justifies — its stored bytes — and with the leaf
 * bytes actually handed to the client, so an honest file of repeated blocks (zeros) streams whole
 * while a walk that yields nothing stops. Only the time inside reads counts: a client that reads
 * slowly pauses the walk between reads, and never spends its budget by being slow.
 */
export interface WorkBudget {
  /** Charges one block read and the time it takes; throws `UNPROCESSABLE` once either allowance is spent. */
  read<T>(work: () => Promise<T>): Promise<T>
  /** Leaf bytes delivered; each 4 KiB earns another block read and another millisecond. */
  earn(leafBytes: number): void
}

const BASE_READS = 4096
const STORED_BYTES_PER_READ = 64
const EARNED_BYTES_PER_READ = 4096
/** Time inside reads any request may spend: the file-bomb CAR of issue 35 must end within 2 s. */
const BASE_READ_MS = 1000
const STORED_BYTES_PER_MS = 1024
const EARNED_BYTES_PER_MS = 4096

export interface WorkBudgetClock {
  /** Milliseconds from any fixed point (`performance.now`). */
  now(): number
}

export function workBudget(
  content: Pick<ContentRecord, 'size'> | null,
  clock: WorkBudgetClock = performance,
): WorkBudget {
  const stored = content?.size ?? 0
  let reads = BASE_READS + Math.ceil(stored / STORED_BYTES_PER_READ)
  let ms = BASE_READ_MS + stored / STORED_BYTES_PER_MS
  let earned = 0
  const exhausted = () => new PinfoldError('UNPROCESSABLE', 'this DAG links to the same blocks too often to be served')
  return {
    async read(work) {
      if (--reads < 0 || ms < 0) throw exhausted()
      const started = clock.now()
      try {
        return await work()
      } finally {
        ms -= clock.now() - started
      }
    },
    earn(leafBytes) {
      earned += leafBytes
      const units = Math.floor(earned / EARNED_BYTES_PER_READ)
      reads += units
      ms += (units * EARNED_BYTES_PER_READ) / EARNED_BYTES_PER_MS
      earned -= units * EARNED_BYTES_PER_READ
    },
  }
}
