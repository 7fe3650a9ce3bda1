import { REQUEST_COUNT_FLUSH_MS } from '@pinfold/core'
import { startTestApi, type TestApi } from '@pinfold/testing/test-api'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

/**
 * The requests-per-minute quota held across two services sharing one record store (the storage
 * `PINFOLD_TEST_STORAGE` names: memory, PGlite, PostgreSQL), as two `pinfold serve` processes over
 * one database are: what one admitted counts against the other after a flush, and between flushes
 * the excess is bounded by what the processes admit in one flush period. The clock stands still 1 s
 * into a minute, so the sliding window's estimate does not move under the test.
 */

const clock = { now: () => new Date(Date.UTC(2026, 10, 28, 23, 0, 1)) }
/** Each service flushed what it admitted, then read the other's flush back: two flush periods. */
const flushed = () => new Promise((resolve) => setTimeout(resolve, 2 * REQUEST_COUNT_FLUSH_MS + 300))

describe('requests per minute across processes', () => {
  let a: TestApi
  let b: TestApi

  beforeAll(async () => {
    a = await startTestApi({ embedder: null, clock })
    b = await startTestApi({ embedder: null, clock, records: a.stores.records })
  })
  afterAll(async () => {
    await b?.close()
    await a?.close()
  })

  const limitTo = (org: string, requestsPerMinute: number) =>
    a.service.quotas.setTenantLimits(org, { requestsPerMinute })
  /** Statuses of `n` requests of `org` to `server`, one after the other. */
  const burst = async (server: TestApi, org: string, n: number) => {
    const statuses: number[] = []
    for (let i = 0; i < n; i++) {
      const res = await server.api('/v3/files/public?limit=1', { org })
      statuses.push(res.status)
      if (res.status === 429) expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
      await res.arrayBuffer()
    }
    return statuses
  }
  const admitted = (statuses: number[]) => statuses.filter((s) => s === 200).length

  it('what one service admitted counts against the other once flushed: 10 a minute in all, not 10 each', async () => {
    await limitTo('shared-rate', 10)
    expect(await burst(a, 'shared-rate', 4)).toEqual([200, 200, 200, 200])
    expect(await burst(b, 'shared-rate', 4)).toEqual([200, 200, 200, 200])
    await flushed()
    // each now knows of the other's 4: two more in all
    expect(await burst(a, 'shared-rate', 3)).toEqual([200, 200, 429])
    await flushed()
    expect(await burst(b, 'shared-rate', 2)).toEqual([429, 429])
    expect(await burst(a, 'shared-rate', 1)).toEqual([429])
    // another tenant is untouched
    expect(await burst(b, 'other-rate', 2)).toEqual([200, 200])
  })

  it('bursts between two flushes: each service admits at most the limit, and both stop once flushed', async () => {
    await limitTo('burst-rate', 10)
    const [fromA, fromB] = await Promise.all([burst(a, 'burst-rate', 12), burst(b, 'burst-rate', 12)])
    // the bound: the limit plus what the other admitted unseen (at most two flush periods' worth),
    // never more than the limit each
    expect(admitted(fromA)).toBeLessThanOrEqual(10)
    expect(admitted(fromB)).toBeLessThanOrEqual(10)
    expect(admitted(fromA) + admitted(fromB)).toBeGreaterThanOrEqual(10)
    await flushed()
    expect(await burst(a, 'burst-rate', 1)).toEqual([429])
    expect(await burst(b, 'burst-rate', 1)).toEqual([429])
  })
})
