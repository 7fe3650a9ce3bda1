export interface Latency {
  p50Ms: number
  p99Ms: number
  runs: number
}

/**
 * Runs `work` repeatedly (after a few warm-up calls) for up to `runs` times or `budgetMs`,
 * whichever comes first, and returns the 50th and 99th percentile of its wall time.
 */
export async function measure(work: () => Promise<unknown>, runs = 300, budgetMs = 2000): Promise<Latency> {
  // warm-up: the first calls in a process pay for JIT compilation and cold caches
  for (let i = 0; i < 20; i++) await work()
  const times: number[] = []
  const deadline = performance.now() + budgetMs
  while (times.length < runs && (times.length < 20 || performance.now() < deadline)) {
    const start = performance.now()
    await work()
    times.push(performance.now() - start)
  }
  times.sort((a, b) => a - b)
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!
  return { p50Ms: at(0.5), p99Ms: at(0.99), runs: times.length }
}
