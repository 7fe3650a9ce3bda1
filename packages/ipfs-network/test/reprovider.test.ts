/** The DHT announcement schedule, on its own (no libp2p: it takes `provide` and `withdraw` as functions). */
import { describe, expect, it } from 'vitest'
import { startReprovider } from '../src/reprovider.js'

const roots = (n: number, prefix = 'root') => Array.from({ length: n }, (_, i) => `${prefix}-${i}`)

async function until(check: () => boolean, ms = 5_000) {
  const deadline = Date.now() + ms
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time')
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

describe('reprovider', () => {
  it('announces every root, never more than `concurrency` at once', async () => {
    let inFlight = 0
    let most = 0
    const provided: string[] = []
    const reprovider = startReprovider({
      roots: async function* () {
        yield* roots(25)
      },
      async provide(cid) {
        most = Math.max(most, ++inFlight)
        await new Promise((resolve) => setTimeout(resolve, 5))
        inFlight--
        provided.push(cid)
      },
      withdraw: async () => {},
      concurrency: 3,
      intervalMs: 60_000,
    })
    await until(() => reprovider.status().runs === 1)
    await reprovider.stop()
    expect(provided.sort()).toEqual(roots(25).sort())
    expect(most).toBe(3)
    expect(reprovider.status()).toMatchObject({ runs: 1, provided: 25, failed: 0, withdrawn: 0 })
  })

  it('runs again on schedule; a failed root is counted and retried; a vanished one is withdrawn', async () => {
    const listings = [
      ['a', 'b', 'c'],
      ['a', 'c'],
    ]
    let run = 0
    const attempts: string[] = []
    const withdrawn: string[] = []
    const errors: string[] = []
    const reprovider = startReprovider({
      roots: async function* () {
        yield* listings[Math.min(run++, 1)]!
      },
      async provide(cid) {
        attempts.push(cid)
        if (cid === 'c') throw new Error('no peer took the record')
      },
      withdraw: async (cid) => {
        withdrawn.push(cid)
      },
      onError: (cid) => errors.push(cid),
      intervalMs: 20,
    })
    await until(() => reprovider.status().runs >= 2)
    const second = reprovider.status()
    await reprovider.stop()
    expect(second).toMatchObject({ provided: 1, failed: 1, withdrawn: 1 })
    expect(withdrawn[0]).toBe('b')
    expect(attempts.slice(0, 5)).toEqual(['a', 'b', 'c', 'a', 'c'])
    expect(errors.slice(0, 2)).toEqual(['c', 'c'])
  })

  it('a listing that fails part-way withdraws nothing', async () => {
    let run = 0
    const withdrawn: string[] = []
    const reprovider = startReprovider({
      roots: async function* () {
        if (run++ === 0) yield* ['a', 'b']
        else {
          yield 'a'
          throw new Error('database unavailable')
        }
      },
      provide: async () => {},
      withdraw: async (cid) => {
        withdrawn.push(cid)
      },
      intervalMs: 20,
    })
    await until(() => reprovider.status().runs >= 3)
    await reprovider.stop()
    expect(withdrawn).toEqual([])
  })

  it('stop - aborts the announcements in flight and schedules nothing more', async () => {
    let started = 0
    let aborted = 0
    const reprovider = startReprovider({
      roots: async function* () {
        yield* roots(4)
      },
      provide: (_, { signal }) =>
        new Promise((_, reject) => {
          started++
          signal.addEventListener('abort', () => {
            aborted++
            reject(signal.reason)
          })
        }),
      withdraw: async () => {},
      concurrency: 2,
    })
    // two announcements hang (the concurrency), the other two wait their turn
    await until(() => started === 2)
    await reprovider.stop()
    expect(aborted).toBe(2)
    expect(reprovider.status().runs).toBe(0)
  })
})
