import { chacha } from '@pinfold/testing/gateway'

/**
 * Reproducible choices from a seed: a ChaCha20 key stream (the test suite's `chacha`) read 32 bits
 * at a time. The same seed and label draw the same sequence, so a failing run replays from the seed
 * it prints; each concurrent actor takes its own label, so its choices do not depend on how the
 * actors' steps happened to interleave.
 */
export class SeededDraws {
  private pool: DataView = new DataView(new ArrayBuffer(0))
  private at = 0
  private refills = 0

  constructor(readonly label: string) {}

  /** Another generator whose sequence depends only on this one's label and `name`. */
  child(name: string): SeededDraws {
    return new SeededDraws(`${this.label}/${name}`)
  }

  /** A whole number in [0, n). */
  below(n: number): number {
    if (this.at + 4 > this.pool.byteLength) {
      const bytes = chacha(`${this.label}#${this.refills++}`, 4096)
      this.pool = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
      this.at = 0
    }
    const value = this.pool.getUint32(this.at)
    this.at += 4
    return Math.floor((value / 2 ** 32) * n)
  }

  /** A whole number in [min, max]. */
  between(min: number, max: number): number {
    return min + this.below(max - min + 1)
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('nothing to pick from')
    return items[this.below(items.length)]!
  }

  /** A key of `weights`, drawn in proportion to its weight. */
  weighted<K extends string>(weights: Record<K, number>): K {
    const entries = Object.entries(weights) as [K, number][]
    let left = this.below(entries.reduce((sum, [, weight]) => sum + weight, 0))
    for (const [key, weight] of entries) {
      if (left < weight) return key
      left -= weight
    }
    return entries.at(-1)![0]
  }
}
