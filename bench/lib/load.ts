import autocannon from 'autocannon'

export interface LoadFigures {
  requestsPerSecond: number
  p50Ms: number
  p99Ms: number
  /** Requests answered in the run. */
  requests: number
  /** Answers that were not 2xx, plus connection errors and timeouts: must be 0 for a valid figure. */
  failures: number
}

export interface LoadOptions {
  url: string
  token?: string | undefined
  seconds: number
  connections: number
}

/**
 * Drives one URL with autocannon (in this process, over keep-alive connections, no pipelining) and
 * returns the mean request rate and latency percentiles. A failed answer makes the figure
 * meaningless (errors are cheap), so the caller checks `failures`.
 */
export async function drive({ url, token, seconds, connections }: LoadOptions): Promise<LoadFigures> {
  const result = await autocannon({
    url,
    connections,
    pipelining: 1,
    duration: seconds,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  })
  return {
    requestsPerSecond: result.requests.average,
    requests: result.requests.total,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
  }
}
