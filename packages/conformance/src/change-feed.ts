import type { ChangeFeed, FactChange } from '@pinfold/interface'
import { describe, expect, it, vi } from 'vitest'
import { freshHarnessPerTest } from './fresh-harness-per-test.js'

export interface ChangeFeedHarness {
  /** Two feeds as two server instances on one record store would hold them. */
  feeds: [ChangeFeed, ChangeFeed]
  close?(): Promise<void>
}

/** `ChangeFeed`: how instances on one record store tell each other what their caches must drop. */
export function describeChangeFeed(name: string, create: () => Promise<ChangeFeedHarness>): void {
  describe(`ChangeFeed conformance: ${name}`, () => {
    let h: ChangeFeedHarness
    freshHarnessPerTest(create, (next) => {
      h = next
    })

    it('publish - every instance hears the change, the publisher too', async () => {
      const [a, b] = h.feeds
      const heardA: (FactChange | 'lost')[] = []
      const heardB: (FactChange | 'lost')[] = []
      a.subscribe((change) => heardA.push(change))
      b.subscribe((change) => heardB.push(change))
      await a.publish('served')
      await a.publish('swaps')
      await vi.waitFor(() => {
        expect(heardB.filter((c) => c !== 'lost')).toEqual(['served', 'swaps'])
        expect(heardA.filter((c) => c !== 'lost')).toEqual(['served', 'swaps'])
      })
    })

    it('subscribe - an unsubscribed listener hears nothing more', async () => {
      const [a, b] = h.feeds
      const heard: (FactChange | 'lost')[] = []
      const unsubscribe = b.subscribe((change) => heard.push(change))
      const marker: (FactChange | 'lost')[] = []
      b.subscribe((change) => marker.push(change))
      unsubscribe()
      await a.publish('served')
      await vi.waitFor(() => expect(marker).toContain('served'))
      expect(heard).toEqual([])
    })
  })
}
