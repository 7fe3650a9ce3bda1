import type { ChangeFeed, FactChange, LocatedBlock } from '@pinfold/interface'
import { describe, expect, it } from 'vitest'
import { createGatewayReadCache, DEFAULT_GATEWAY_CACHE } from '../../src/gateway/read-cache.js'

const located = (until: Date | null | undefined): LocatedBlock => ({
  content: { cid: 'bafy', blobKey: 'blobs/a', size: 1, kind: 'file', profile: null },
  location: { multihash: new Uint8Array(2), codec: 0x55, source: 'blob', offset: 0, length: 1, isRoot: true },
  until,
})

/** A loader that counts its calls. */
function counted<T>(value: T) {
  const calls = { n: 0 }
  const load = async () => {
    calls.n++
    return value
  }
  return { calls, load }
}

const at = (ms: number) => new Date(ms)

describe('gateway read cache', () => {
  it('located - kept until its until, asked again after; an answer without until is never kept', async () => {
    const cache = createGatewayReadCache(DEFAULT_GATEWAY_CACHE)
    const lapsing = counted(located(at(1000)))
    await cache.located('k', at(0), lapsing.load)
    await cache.located('k', at(999), lapsing.load)
    expect(lapsing.calls.n).toBe(1)
    await cache.located('k', at(1000), lapsing.load)
    expect(lapsing.calls.n).toBe(2)

    const unsaid = counted(located(undefined))
    await cache.located('u', at(0), unsaid.load)
    await cache.located('u', at(0), unsaid.load)
    expect(unsaid.calls.n).toBe(2)

    const absent = counted(undefined)
    await cache.located('none', at(0), absent.load)
    await cache.located('none', at(0), absent.load)
    expect(absent.calls.n).toBe(2) // nothing found is never kept: an upload may add it any time
  })

  it('invalidate - drops the facts of its kind only; bytes stay', async () => {
    const cache = createGatewayReadCache(DEFAULT_GATEWAY_CACHE)
    const forever = counted(located(null))
    const swap = counted<string | null>('bafytarget')
    await cache.located('k', at(0), forever.load)
    await cache.swapTarget('s', swap.load)
    cache.setBytes('b', new Uint8Array(10))
    cache.invalidate('swaps')
    await cache.located('k', at(0), forever.load)
    await cache.swapTarget('s', swap.load)
    expect([forever.calls.n, swap.calls.n]).toEqual([1, 2])
    cache.invalidate('served')
    await cache.located('k', at(0), forever.load)
    expect(forever.calls.n).toBe(2)
    expect(cache.getBytes('b')?.length).toBe(10)
  })

  it('invalidate - a lookup that started before the change does not keep its answer', async () => {
    const cache = createGatewayReadCache(DEFAULT_GATEWAY_CACHE)
    let release: () => void = () => {}
    const slow = cache.located('k', at(0), async () => {
      await new Promise<void>((resolve) => {
        release = resolve
      })
      return located(null)
    })
    cache.invalidate('served') // the delete commits while the lookup is in flight
    release()
    await slow
    const after = counted(located(null))
    await cache.located('k', at(0), after.load)
    expect(after.calls.n).toBe(1)
  })

  it('changes - a change another instance announces drops the facts here; a lost feed drops them all', async () => {
    const listeners: ((change: FactChange | 'lost') => void)[] = []
    const published: FactChange[] = []
    const changes: ChangeFeed = {
      publish: async (change) => void published.push(change),
      subscribe: (listener) => {
        listeners.push(listener)
        return () => {}
      },
    }
    const cache = createGatewayReadCache({ ...DEFAULT_GATEWAY_CACHE, changes })
    const forever = counted(located(null))
    const swap = counted<string | null>(null)
    await cache.located('k', at(0), forever.load)
    listeners[0]!('served')
    await cache.located('k', at(0), forever.load)
    expect(forever.calls.n).toBe(2)
    await cache.swapTarget('s', swap.load)
    listeners[0]!('lost')
    await cache.swapTarget('s', swap.load)
    await cache.located('k', at(0), forever.load)
    expect([forever.calls.n, swap.calls.n]).toEqual([3, 2])
    cache.invalidate('swaps')
    expect(published).toEqual(['swaps'])
  })

  it('bytes - bounded by bytes, least recently used out first; larger than maxItemBytes never kept', () => {
    const cache = createGatewayReadCache({ maxBytes: 8 * 1024, ttlMs: 1000, maxItemBytes: 2048 })
    for (let i = 0; i < 10; i++) cache.setBytes(`b${i}`, new Uint8Array(1000))
    expect(cache.getBytes('b0')).toBeUndefined() // 10 KB into ~7 KB for bytes: the oldest went
    expect(cache.getBytes('b9')?.length).toBe(1000)
    cache.setBytes('big', new Uint8Array(2049))
    expect(cache.getBytes('big')).toBeUndefined()
  })

  it('maxBytes 0 - keeps nothing', async () => {
    const cache = createGatewayReadCache({ ...DEFAULT_GATEWAY_CACHE, maxBytes: 0 })
    const forever = counted(located(null))
    await cache.located('k', at(0), forever.load)
    await cache.located('k', at(0), forever.load)
    cache.setBytes('b', new Uint8Array(1))
    expect([forever.calls.n, cache.getBytes('b'), cache.maxItemBytes]).toEqual([2, undefined, 0])
  })
})
