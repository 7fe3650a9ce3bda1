/**
 * A push-to-pull bridge with backpressure: a producer `push`es values and an async-iterable
 * consumer (a `BlobStore.put`) pulls them. `push` resolves only once fewer than `highWater`
 * values wait, so memory stays bounded. When the consumer stops early, `push` rejects.
 */
export interface Pushable<T> {
  readonly iterable: AsyncIterable<T>
  push(value: T): Promise<void>
  /** No more values: the consumer's iteration ends after the queued ones. */
  end(): void
  /** The consumer's iteration throws `error` (after nothing else). */
  fail(error: unknown): void
}

export function pushable<T>(highWater = 4): Pushable<T> {
  const queue: T[] = []
  let ended = false
  let failure: { error: unknown } | undefined
  let consumerGone = false
  let consumerWaiting: (() => void) | undefined
  let producersWaiting: (() => void)[] = []

  const wakeConsumer = () => {
    const wake = consumerWaiting
    consumerWaiting = undefined
    wake?.()
  }
  const wakeProducers = () => {
    const waiting = producersWaiting
    producersWaiting = []
    for (const wake of waiting) wake()
  }

  async function* consume(): AsyncGenerator<T> {
    try {
      for (;;) {
        if (failure) throw failure.error
        if (queue.length > 0) {
          const value = queue.shift() as T
          wakeProducers()
          yield value
          continue
        }
        if (ended) return
        await new Promise<void>((resolve) => (consumerWaiting = resolve))
      }
    } finally {
      consumerGone = true
      queue.length = 0
      wakeProducers()
    }
  }

  return {
    iterable: consume(),
    async push(value) {
      if (failure) throw failure.error
      if (consumerGone || ended) throw new Error('pushable: the consumer is no longer reading')
      queue.push(value)
      wakeConsumer()
      while (queue.length >= highWater && !consumerGone && !failure) {
        await new Promise<void>((resolve) => producersWaiting.push(resolve))
      }
      if (consumerGone && !ended) throw new Error('pushable: the consumer is no longer reading')
    },
    end() {
      ended = true
      wakeConsumer()
    },
    fail(error) {
      failure ??= { error }
      wakeConsumer()
      wakeProducers()
    },
  }
}
