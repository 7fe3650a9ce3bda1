import type { ContentRecord } from '@pinfold/interface'
import { PinfoldError } from '@pinfold/interface'

/**
 * How many block reads one gateway request may spend walking a DAG. A DAG whose nodes link to the
 * same child many times (a few KB of blocks describing terabytes, or millions of empty leaves)
 * would otherwise make one request walk without end. The allowance grows with what the content
 * justifies — its stored bytes — and with the leaf bytes actually handed to the client, so an
 * honest file of repeated blocks (zeros) streams whole while a walk that yields nothing stops.
 */
export interface WorkBudget {
  /** Counts one block read; throws `UNPROCESSABLE` once the allowance is spent. */
  spend(): void
  /** Leaf bytes delivered; each 4 KiB earns another block read. */
  earn(leafBytes: number): void
}

const BASE_READS = 4096
const STORED_BYTES_PER_READ = 64
const EARNED_BYTES_PER_READ = 4096

export function workBudget(content: Pick<ContentRecord, 'size'> | null): WorkBudget {
  let allowance = BASE_READS + Math.ceil((content?.size ?? 0) / STORED_BYTES_PER_READ)
  let earned = 0
  return {
    spend() {
      if (--allowance < 0) {
        throw new PinfoldError('UNPROCESSABLE', 'this DAG links to the same blocks too often to be served')
      }
    },
    earn(leafBytes) {
      earned += leafBytes
      const reads = Math.floor(earned / EARNED_BYTES_PER_READ)
      allowance += reads
      earned -= reads * EARNED_BYTES_PER_READ
    },
  }
}
