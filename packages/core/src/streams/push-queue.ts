/**
 * A queue from a synchronous producer to one asynchronous consumer (`for await`): the producer
 * pushes items as it makes them, with no promise per item, and waits (`drain`) only when it chooses
 * to, for the consumer to catch up; items are weighed (bytes) so it can bound what waits.
 *
 * `fail` reaches the consumer at once (items still queued are dropped); a consumer that stops
 * (`return`, as `for await` does when its body throws) drops the queue, ignores further pushes and
 * releases a waiting producer, which learns why from the consumer itself.
 */
export class PushQueue<T> implements AsyncIterableIterator<T> {
  private items: T[] = []
  private queued = 0
  private ended = false
  private stopped = false
  private failure: { error: unknown } | undefined
  private wakeConsumer: (() => void) | undefined
  private wakeProducer: (() => void) | undefined
  private producerWaitsFor = 0

  constructor(private readonly weigh: (item: T) => number = () => 0) {}

  /** The weight of the items waiting for the consumer. */
  get queuedWeight(): number {
    return this.queued
  }

  push(item: T): void {
    if (this.ended || this.stopped || this.failure) return
    this.items.push(item)
    this.queued += this.weigh(item)
    this.wake('consumer')
  }

  /** No more items: the consumer ends once it has taken those queued. */
  end(): void {
    this.ended = true
    this.wake('consumer')
  }

  /** The consumer's next read throws `error`. */
  fail(error: unknown): void {
    this.failure ??= { error }
    this.items = []
    this.queued = 0
    this.wake('consumer')
    this.wake('producer')
  }

  /** Resolves once at most `weight` waits for the consumer, or the consumer stopped or failed. */
  async drain(weight: number): Promise<void> {
    while (this.queued > weight && !this.stopped && !this.failure) {
      this.producerWaitsFor = weight
      await new Promise<void>((resolve) => {
        this.wakeProducer = resolve
      })
    }
  }

  async next(): Promise<IteratorResult<T>> {
    for (;;) {
      if (this.failure) throw this.failure.error
      if (this.items.length > 0) {
        const value = this.items.shift() as T
        this.queued -= this.weigh(value)
        if (this.queued <= this.producerWaitsFor) this.wake('producer')
        return { value, done: false }
      }
      if (this.ended || this.stopped) return { value: undefined, done: true }
      await new Promise<void>((resolve) => {
        this.wakeConsumer = resolve
      })
    }
  }

  async return(): Promise<IteratorResult<T>> {
    this.stopped = true
    this.items = []
    this.queued = 0
    this.wake('producer')
    return { value: undefined, done: true }
  }

  [Symbol.asyncIterator](): this {
    return this
  }

  private wake(side: 'consumer' | 'producer'): void {
    const wake = side === 'consumer' ? this.wakeConsumer : this.wakeProducer
    if (side === 'consumer') this.wakeConsumer = undefined
    else this.wakeProducer = undefined
    wake?.()
  }
}
