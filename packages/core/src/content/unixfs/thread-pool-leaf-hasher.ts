import { subtle } from 'node:crypto'
import type { RawLeaf } from './raw-leaf-hasher.js'

/**
 * Leaf bytes that may wait on the thread pool for their digest before {@link
 * ThreadPoolLeafHasher.behind} asks the reader to wait: enough to keep the pool's threads busy
 * while the main thread reads on, little enough that a slow pool holds the request back.
 */
export const POOL_HASH_AHEAD_BYTES = 4 * 1024 * 1024

/** A leaf handed to the thread pool, in leaf order; `digest` once its hash is back. */
interface LeafInFlight {
  size: number
  digest?: Uint8Array
}

/**
 * Cuts a byte stream into raw leaves of `leafBytes` as {@link RawLeafHasher} does, but hashes each
 * leaf on libuv's thread pool (`crypto.subtle.digest`): the main thread only gathers a leaf's
 * bytes, so with a core free one upload can go faster than one thread can both read and hash. On
 * a machine whose cores are all busy anyway it only adds copies (see `UploadHashing`).
 *
 * `onLeaf` hears of the leaves strictly in leaf order, asynchronously, whatever order the pool
 * finishes them in. The producer bounds the leaves in flight: while {@link behind}, it waits on
 * {@link caughtUp}. A failure (of a digest, or thrown by `onLeaf`) is kept and surfaces at the next
 * wait; {@link abandon} stops delivering and lets what is in flight settle.
 */
export class ThreadPoolLeafHasher {
  /** One leaf's bytes, gathered from the chunks: `digest` copies its input at once, so one buffer serves every leaf. */
  private readonly gathered: Uint8Array
  private filled = 0
  private leaves = 0
  private readonly inFlight: LeafInFlight[] = []
  private readonly maxInFlight: number
  private failure: { error: unknown } | undefined
  private abandoned = false
  private waiters: (() => void)[] = []

  constructor(
    private readonly leafBytes: number,
    private readonly onLeaf: (leaf: RawLeaf) => void,
    aheadBytes = POOL_HASH_AHEAD_BYTES,
  ) {
    this.gathered = new Uint8Array(leafBytes)
    this.maxInFlight = Math.max(1, Math.floor(aheadBytes / leafBytes))
  }

  /** Feeds a chunk; its bytes are copied (or, for a whole leaf within it, hashed from it) before this returns. */
  update(chunk: Uint8Array): void {
    for (let at = 0; at < chunk.length; ) {
      if (this.filled === 0 && chunk.length - at >= this.leafBytes) {
        this.hash(chunk.subarray(at, at + this.leafBytes)) // a whole leaf in the chunk needs no gathering
        at += this.leafBytes
        continue
      }
      const take = Math.min(this.leafBytes - this.filled, chunk.length - at)
      this.gathered.set(chunk.subarray(at, at + take), this.filled)
      this.filled += take
      at += take
      if (this.filled === this.leafBytes) this.hashGathered()
    }
  }

  /** Ends the stream: the open leaf, however short, is the last; an empty stream is one empty leaf, as with the stock chunker. */
  finish(): void {
    if (this.filled > 0 || this.leaves === 0) this.hashGathered()
  }

  /** More leaves in flight than the bound, or hashing failed: the producer should wait on {@link caughtUp}. */
  get behind(): boolean {
    return this.failure !== undefined || this.inFlight.length > this.maxInFlight
  }

  /** Resolves once at most half the bound is in flight (the pool keeps working while the producer reads); rejects with a failure. */
  caughtUp(): Promise<void> {
    return this.settledTo(Math.floor(this.maxInFlight / 2))
  }

  /** Resolves once every leaf fed has been delivered to `onLeaf` (call {@link finish} first); rejects with a failure. */
  delivered(): Promise<void> {
    return this.settledTo(0)
  }

  /** Delivers nothing more and resolves once no digest is in flight, failed or not. */
  async abandon(): Promise<void> {
    this.abandoned = true
    while (this.inFlight.length > 0) await this.settled()
  }

  private async settledTo(count: number): Promise<void> {
    while (!this.failure && this.inFlight.length > count) await this.settled()
    if (this.failure) throw this.failure.error
  }

  private settled(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve))
  }

  private hashGathered(): void {
    this.hash(this.gathered.subarray(0, this.filled))
    this.filled = 0
  }

  private hash(bytes: Uint8Array): void {
    const leaf: LeafInFlight = { size: bytes.length }
    this.inFlight.push(leaf)
    this.leaves++
    // handled at once, so no digest's failure is ever an unhandled rejection, whatever the producer does
    subtle.digest('SHA-256', bytes).then(
      (digest) => {
        leaf.digest = new Uint8Array(digest)
        this.deliverInOrder()
      },
      (error: unknown) => {
        this.failure ??= { error }
        leaf.digest = new Uint8Array(0)
        this.deliverInOrder()
      },
    )
  }

  /** Hands `onLeaf` every leaf whose digest is back and whose predecessors have gone, then wakes the producer. */
  private deliverInOrder(): void {
    while (this.inFlight[0]?.digest) {
      const { size, digest } = this.inFlight.shift() as Required<LeafInFlight>
      if (this.abandoned || this.failure) continue
      try {
        this.onLeaf({ digest, size })
      } catch (error) {
        this.failure = { error }
      }
    }
    const waiters = this.waiters
    this.waiters = []
    for (const wake of waiters) wake()
  }
}
