import type { ChangeFeed, FactChange } from '@pinfold/interface'

/**
 * Changes announced in process: for several services sharing one memory record store (pass the
 * same feed to each). Delivered at once, never lost.
 */
export function createMemoryChangeFeed(): ChangeFeed {
  const listeners = new Set<(change: FactChange | 'lost') => void>()
  return {
    async publish(change) {
      for (const listener of listeners) listener(change)
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}
