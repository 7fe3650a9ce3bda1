import { abortError, PinfoldError } from './errors.js'

export interface FairSlotsOptions {
  /** Tasks running at once, all parties together. */
  concurrency: number
  /** Tasks waiting for a slot at most, all parties together; one more is `RATE_LIMITED`. */
  maxQueue: number
  /**
   * Tasks one party may hold, running and waiting together; one more is `RATE_LIMITED`. Default a
   * quarter of the queue, at least 1.
   */
  maxPerParty?: number | undefined
  /**
   * Tasks of one party running at once: below `concurrency`, a slot stays for the others. Default
   * one fewer than `concurrency`, at least 1.
   */
  maxRunningPerParty?: number | undefined
  /** What the tasks are, in refusals: "image transforms". */
  what: string
}

export interface FairSlots {
  /**
   * Runs `task` for `party` (the tenant whose work it is) when a slot is free and the party's
   * turn comes, or refuses at once with `RATE_LIMITED` when the party already holds
   * `maxPerParty` tasks or the queue is full. A task still waiting when `signal` aborts leaves
   * the queue and rejects with `ABORTED`.
   */
  run<T>(party: string, task: () => Promise<T>, signal?: AbortSignal): Promise<T>
  /** What the pool holds now, and how many tasks it has refused since it was made: for metrics. */
  stats(): FairSlotsStats
}

export interface FairSlotsStats {
  /** Tasks holding a slot. */
  running: number
  /** Tasks waiting for one. */
  waiting: number
  /** Tasks refused with `RATE_LIMITED` (a party over its share, or the queue full), since creation. */
  refused: number
}

interface Waiting {
  start: () => void
}

/**
 * A bounded pool shared by tenants, so that one of them cannot take every slot or fill the
 * queue: each holds at most `maxPerParty` tasks and runs at most `maxRunningPerParty` at once,
 * and when a slot frees the parties with tasks waiting take turns (round robin): one never served
 * first, else the one served longest ago. Used by the image transformer and the text extraction pool, whose work a tenant's
 * requests cause but whose slots every tenant shares.
 */
export function createFairSlots(options: FairSlotsOptions): FairSlots {
  const { concurrency, maxQueue, what } = options
  const maxPerParty = options.maxPerParty ?? Math.max(1, Math.floor(maxQueue / 4))
  const maxRunningPerParty = options.maxRunningPerParty ?? Math.max(1, concurrency - 1)
  const running = new Map<string, number>()
  /** Per party, its tasks in the order they came; parties in the order they first queued. */
  const waiting = new Map<string, Waiting[]>()
  /** When each busy party last had a task started (a counter); forgotten once it is idle. */
  const lastServed = new Map<string, number>()
  let turns = 0
  let runningTotal = 0
  let waitingTotal = 0
  let refusedTotal = 0

  const count = (party: string) => running.get(party) ?? 0
  const held = (party: string) => count(party) + (waiting.get(party)?.length ?? 0)

  function refuse(message: string): PinfoldError {
    refusedTotal++
    return new PinfoldError('RATE_LIMITED', message, { details: { retryAfterSeconds: 1 } })
  }

  /** The party whose turn it is: never served first (in the order they queued), then served longest ago. */
  function nextParty(): string | undefined {
    let pick: string | undefined
    for (const party of waiting.keys()) {
      if (count(party) >= maxRunningPerParty) continue
      const served = lastServed.get(party)
      if (served === undefined) return party
      if (pick === undefined || served < lastServed.get(pick)!) pick = party
    }
    return pick
  }

  /** Starts waiting tasks while slots are free. */
  function dispatch(): void {
    while (runningTotal < concurrency) {
      const party = nextParty()
      if (party === undefined) return
      const queue = waiting.get(party)!
      const next = queue.shift()!
      waitingTotal--
      if (queue.length === 0) waiting.delete(party)
      next.start()
    }
  }

  return {
    stats: () => ({ running: runningTotal, waiting: waitingTotal, refused: refusedTotal }),
    run<T>(party: string, task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
      if (signal?.aborted) return Promise.reject(abortError(signal))
      if (held(party) >= maxPerParty) {
        return Promise.reject(
          refuse(`too many ${what} of this account are running or waiting (at most ${maxPerParty}); try again shortly`),
        )
      }
      const free = runningTotal < concurrency && count(party) < maxRunningPerParty
      if (!free && waitingTotal >= maxQueue) {
        return Promise.reject(refuse(`too many ${what} are waiting; try again shortly`))
      }
      return new Promise<T>((resolve, reject) => {
        const start = () => {
          signal?.removeEventListener('abort', cancel)
          runningTotal++
          running.set(party, count(party) + 1)
          lastServed.set(party, ++turns)
          const settle = () => {
            runningTotal--
            running.set(party, count(party) - 1)
            if (held(party) === 0) {
              running.delete(party)
              lastServed.delete(party)
            }
            dispatch()
          }
          Promise.resolve().then(task).then(resolve, reject).finally(settle)
        }
        const entry: Waiting = { start }
        function cancel() {
          const queue = waiting.get(party)
          const index = queue?.indexOf(entry) ?? -1
          if (index < 0) return
          queue!.splice(index, 1)
          waitingTotal--
          if (queue!.length === 0) waiting.delete(party)
          if (held(party) === 0) lastServed.delete(party)
          reject(abortError(signal!))
        }
        if (free) return start()
        signal?.addEventListener('abort', cancel, { once: true })
        const queue = waiting.get(party)
        if (queue) queue.push(entry)
        else waiting.set(party, [entry])
        waitingTotal++
      })
    },
  }
}
