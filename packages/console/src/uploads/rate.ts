/**
 * Upload speed over the last few seconds (a whole-upload average would hide a stall) and the time
 * left at that speed.
 */
export function createRateMeter(windowMs = 3000) {
  const samples: { at: number; bytes: number }[] = []
  return {
    sample(bytes: number, at = performance.now()): { bytesPerSecond: number } {
      samples.push({ at, bytes })
      while (samples.length > 2 && at - samples[0]!.at > windowMs) samples.shift()
      const first = samples[0]!
      const elapsed = (at - first.at) / 1000
      return { bytesPerSecond: elapsed > 0 ? (bytes - first.bytes) / elapsed : 0 }
    },
  }
}

export function secondsLeft(sent: number, total: number, bytesPerSecond: number): number {
  return bytesPerSecond > 0 ? (total - sent) / bytesPerSecond : Number.POSITIVE_INFINITY
}
