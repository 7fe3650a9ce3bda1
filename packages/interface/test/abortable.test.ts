import { describe, expect, it } from 'vitest'
import { abortable, PinfoldError } from '../src/index.js'

async function* count(n: number) {
  for (let i = 0; i < n; i++) yield i
}

describe('abortable', () => {
  it('passes every item through, with one abort listener for the whole iteration', async () => {
    const controller = new AbortController()
    let added = 0
    let removed = 0
    const { signal } = controller
    const add = signal.addEventListener.bind(signal)
    const remove = signal.removeEventListener.bind(signal)
    signal.addEventListener = ((...args: Parameters<typeof add>) => {
      added++
      add(...args)
    }) as typeof add
    signal.removeEventListener = ((...args: Parameters<typeof remove>) => {
      removed++
      remove(...args)
    }) as typeof remove
    const seen: number[] = []
    for await (const item of abortable(count(1000), signal)) seen.push(item)
    expect(seen).toEqual([...Array(1000).keys()])
    expect([added, removed]).toEqual([1, 1])
  })

  it('rejects at once when the signal aborts while the source waits', async () => {
    const controller = new AbortController()
    const stalled = (async function* () {
      yield 1
      await new Promise(() => {})
    })()
    const seen: number[] = []
    const reading = (async () => {
      for await (const item of abortable(stalled, controller.signal)) seen.push(item)
    })()
    setTimeout(() => controller.abort(new PinfoldError('ABORTED', 'gone')), 10)
    await expect(reading).rejects.toMatchObject({ code: 'ABORTED' })
    expect(seen).toEqual([1])
  })

  it('rejects when the signal aborted while the consumer held an item', async () => {
    const controller = new AbortController()
    const seen: number[] = []
    const reading = (async () => {
      for await (const item of abortable(count(10), controller.signal)) {
        seen.push(item)
        if (item === 2) controller.abort(new PinfoldError('ABORTED', 'gone'))
      }
    })()
    await expect(reading).rejects.toMatchObject({ code: 'ABORTED' })
    expect(seen).toEqual([0, 1, 2])
  })
})
