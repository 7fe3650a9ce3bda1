import { describe, expect, it } from 'vitest'
import { createInnerNodeCache } from '../../src/gateway/inner-node-cache.js'

const bytes = (size: number) => new Uint8Array(size)

describe('inner node cache', () => {
  it('get/set - keeps entries within the byte budget, evicting the least recently used first', () => {
    const cache = createInnerNodeCache(100)
    cache.set('a', bytes(40))
    cache.set('b', bytes(40))
    expect(cache.get('a')?.length).toBe(40) // a is now the most recently used
    cache.set('c', bytes(40)) // 120 > 100: b goes
    expect(cache.get('b')).toBeUndefined()
    expect(cache.get('a')?.length).toBe(40)
    expect(cache.get('c')?.length).toBe(40)
  })

  it('set - an entry larger than the whole budget is not kept, and evicts nothing', () => {
    const cache = createInnerNodeCache(100)
    cache.set('small', bytes(10))
    cache.set('huge', bytes(101))
    expect(cache.get('huge')).toBeUndefined()
    expect(cache.get('small')?.length).toBe(10)
  })
})
