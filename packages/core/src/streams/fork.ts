/**
 * Splits one async iterable into `count` branches that each see every item, pulling the source
 * only as fast as the slowest live branch allows: no branch runs more than `maxLag` items ahead of
 * another, so memory stays bounded whatever the source's size. (Web streams' `tee()` buffers
 * without limit when one branch is slower, which is why it is not used here.)
 *
 * A branch that stops early (`return()`) no longer holds the others back. A source error reaches
 * every branch. The source is closed once every branch has stopped.
 */
export function fork<T>(source: AsyncIterable<T>, count: number, maxLag = 8): AsyncIterableIterator<T>[] {
  const iterator = source[Symbol.asyncIterator]()
  const queues: T[][] = Array.from({ length: count }, () => [])
  const stopped: boolean[] = Array.from({ length: count }, () => false)
  let ended = false
  let failure: { error: unknown } | undefined
  let pulling = false
  let waiters: (() => void)[] = []

  const wake = () => {
    const current = waiters
    waiters = []
    for (const resolve of current) resolve()
  }

  const pull = async () => {
    pulling = true
    try {
      const result = await iterator.next()
      if (result.done) ended = true
      else for (let i = 0; i < count; i++) if (!stopped[i]) queues[i]!.push(result.value)
    } catch (error) {
      failure = { error }
    } finally {
      pulling = false
      wake()
    }
  }

  const stop = async (index: number) => {
    stopped[index] = true
    queues[index] = []
    wake()
    if (stopped.every(Boolean) && !ended && !failure) await iterator.return?.()
  }

  return queues.map((_, index): AsyncIterableIterator<T> => {
    const branch: AsyncIterableIterator<T> = {
      async next(): Promise<IteratorResult<T>> {
        for (;;) {
          const queue = queues[index]!
          if (queue.length > 0) {
            const value = queue.shift() as T
            wake()
            return { value, done: false }
          }
          if (failure) throw failure.error
          if (ended || stopped[index]) return { value: undefined, done: true }
          const othersFull = queues.some((q, j) => j !== index && !stopped[j] && q.length >= maxLag)
          const wait = new Promise<void>((resolve) => waiters.push(resolve))
          if (!pulling && !othersFull) void pull()
          await wait
        }
      },
      async return(): Promise<IteratorResult<T>> {
        await stop(index)
        return { value: undefined, done: true }
      },
      [Symbol.asyncIterator]() {
        return branch
      },
    }
    return branch
  })
}
