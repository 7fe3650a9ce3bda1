import type { HttpObserver, UploadPath } from '@pinfold/http'
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client'
import { watchDenylists } from './denylist-metrics.js'
import { watchIpfs } from './ipfs-metrics.js'
import { watchPools } from './pool-metrics.js'
import { type PgPoolStats, watchSql } from './sql-metrics.js'
import { watchTotals } from './totals-metrics.js'
import { watchWebhooks } from './webhook-metrics.js'

export interface PrometheusMetricsOptions {
  /**
   * The registry Pinfold's metrics go into; default a new one. An application that serves its own
   * `/metrics` passes its registry and gets Pinfold's series beside its own.
   */
  registry?: Registry | undefined
  /**
   * prom-client's process metrics (event-loop delay, heap, GC, open file descriptors, CPU) in the
   * same registry; default true. Turn off when the registry has them already.
   */
  processMetrics?: boolean | undefined
  /**
   * How long the deployment totals (stored files and bytes, the pin queue) are reused between
   * scrapes: each read sums every file record. Default 60 000 ms.
   */
  totalsMaxAgeMs?: number | undefined
}

/** One (method, route, code): its request count, and its bound duration series. */
interface RequestSeries {
  readonly labels: { method: string; route: string; code: string }
  count: number
  readonly time: Histogram.Internal<string>
}

/** `map`'s entry for `key`, made by `make` on first use. */
function entry<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let value = map.get(key)
  if (value === undefined) {
    value = make()
    map.set(key, value)
  }
  return value
}

const newMap = <K, V>() => new Map<K, V>()

/** The pieces of the server that report to the registry. */
export interface PrometheusMetrics {
  readonly registry: Registry
  /** For `createFetchHandler({ observer })`: requests, gateway bodies, uploads. */
  readonly http: HttpObserver
  /** Times every statement and transaction the record store runs through `client`. */
  readonly sql: ReturnType<typeof watchSql>['sql']
  /** Reads a `pg.Pool`'s connection counts at each scrape. */
  readonly pgPool: ReturnType<typeof watchSql>['pgPool']
  /** Reads a work pool's slots (running, waiting, refused) at each scrape. */
  readonly pool: ReturnType<typeof watchPools>['pool']
  /** Reads the embedded IPFS node's reprovider at each scrape. */
  readonly ipfsPeer: ReturnType<typeof watchIpfs>['ipfsPeer']
  /** Reads the service's stored totals and pin queue (kept `totalsMaxAgeMs`). */
  readonly totals: ReturnType<typeof watchTotals>['totals']
  /** Reads the deny lists at each scrape (rules, stale lists). */
  readonly denylists: ReturnType<typeof watchDenylists>['denylists']
  /** Reads the held-content scan's progress at each scrape. */
  readonly heldContentScan: ReturnType<typeof watchDenylists>['heldContentScan']
  /** Counts one refusal by a deny rule, by list, line and where. */
  readonly contentBlocked: ReturnType<typeof watchDenylists>['contentBlocked']
  /** Counts one malformed deny-list line, by list. */
  readonly malformedLine: ReturnType<typeof watchDenylists>['malformedLine']
  /** Counts one webhook delivery attempt, by result. */
  readonly webhookAttempt: ReturnType<typeof watchWebhooks>['webhookAttempt']
}

// Seconds. Requests and first bytes: milliseconds to a minute; uploads run to many minutes.
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60]
const UPLOAD_PATHS: readonly UploadPath[] = ['multipart', 'tus', 'signed_url', 'legacy', 'pin_by_cid', 'psa']
const UPLOAD_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 900, 3600]

/**
 * Pinfold's Prometheus metrics on a prom-client registry. Every label comes from a fixed set
 * (route patterns, status codes, formats, upload paths), so the number of series is bounded
 * whatever the traffic. Names follow Kubo's where the meaning is the same (`ipfs_http_gw_*`).
 */
export function createPrometheusMetrics(options: PrometheusMetricsOptions = {}): PrometheusMetrics {
  const registry = options.registry ?? new Registry()
  const registers = [registry]
  if (options.processMetrics ?? true) collectDefaultMetrics({ register: registry })

  const requestSeconds = new Histogram({
    name: 'pinfold_http_request_duration_seconds',
    help: 'Time from a request to its answer (headers; a download body may go on), by method, route pattern and status code.',
    labelNames: ['method', 'route', 'code'] as const,
    buckets: REQUEST_BUCKETS,
    registers,
  })
  const gatewayResponses = new Counter({
    name: 'ipfs_http_gw_responses_total',
    help: 'Gateway answers, by status code and format (raw, car, unixfs).',
    labelNames: ['code', 'format'] as const,
    registers,
  })
  const gatewayConcurrent = new Gauge({
    name: 'ipfs_http_gw_concurrent_requests',
    help: 'Gateway requests whose body is still being sent.',
    registers,
  })
  const gatewayBytes = new Counter({
    name: 'ipfs_http_gw_sent_bytes_total',
    help: 'Gateway body bytes the clients read, by format.',
    labelNames: ['format'] as const,
    registers,
  })
  const gatewayFirstByte = new Histogram({
    name: 'ipfs_http_gw_time_to_first_byte_seconds',
    help: 'Time from a gateway request to the first body byte sent, by format.',
    labelNames: ['format'] as const,
    buckets: REQUEST_BUCKETS,
    registers,
  })
  const gatewaySeconds = new Histogram({
    name: 'ipfs_http_gw_get_duration_seconds',
    help: 'Time from a gateway request to the end of its body, by format.',
    labelNames: ['format'] as const,
    buckets: UPLOAD_BUCKETS,
    registers,
  })
  const uploadBytes = new Counter({
    name: 'pinfold_upload_bytes_total',
    help: 'Request body bytes of successful uploads (as declared by Content-Length), by path.',
    labelNames: ['path'] as const,
    registers,
  })
  const uploadSeconds = new Histogram({
    name: 'pinfold_upload_duration_seconds',
    help: `Time of successful upload requests, by path (${UPLOAD_PATHS.join(', ')}).`,
    labelNames: ['path'] as const,
    buckets: UPLOAD_BUCKETS,
    registers,
  })

  // every path from the start at 0, so a rate over them is 0 rather than absent before the first upload
  for (const path of UPLOAD_PATHS) uploadBytes.inc({ path }, 0)

  // The per-request path is kept to a count and one histogram observation on a bound series,
  // found through nested maps (route patterns, methods and codes are the same few strings and
  // numbers, so no key string is built per request). prom-client hashes and checks the label set
  // on every `inc`/`observe`, even a bound one; the counter is therefore not touched per request:
  // its figure is read from these counts when scraped (its `collect`).
  const bound = new Map<string, Map<string, Map<number, RequestSeries>>>()
  const series = (method: string, route: string, code: number): RequestSeries => {
    const byMethod = entry(bound, route, newMap<string, Map<number, RequestSeries>>)
    const byCode = entry(byMethod, method, newMap<number, RequestSeries>)
    let found = byCode.get(code)
    if (!found) {
      found = {
        labels: { method, route, code: String(code) },
        count: 0,
        time: requestSeconds.labels(method, route, String(code)),
      }
      byCode.set(code, found)
    }
    return found
  }
  new Counter({
    name: 'pinfold_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status code.',
    labelNames: ['method', 'route', 'code'] as const,
    registers,
    collect() {
      this.reset()
      for (const byMethod of bound.values())
        for (const byCode of byMethod.values()) for (const { labels, count } of byCode.values()) this.inc(labels, count)
    },
  })

  const http: HttpObserver = {
    answered({ method, route, status, seconds }) {
      const found = series(method, route, status)
      found.count++
      found.time.observe(seconds)
    },
    gatewayStarted() {
      gatewayConcurrent.inc()
      return ({ format, status, bytes, firstByteSeconds, seconds }) => {
        gatewayConcurrent.dec()
        gatewayResponses.inc({ code: status, format })
        if (bytes > 0) gatewayBytes.inc({ format }, bytes)
        if (firstByteSeconds !== undefined) gatewayFirstByte.observe({ format }, firstByteSeconds)
        gatewaySeconds.observe({ format }, seconds)
      }
    },
    uploaded({ path, bytes, seconds }) {
      uploadBytes.inc({ path }, bytes)
      uploadSeconds.observe({ path }, seconds)
    },
  }
  return {
    registry,
    http,
    ...watchSql(registers),
    ...watchPools(registers),
    ...watchIpfs(registers),
    ...watchTotals(registers, options.totalsMaxAgeMs ?? 60_000),
    ...watchDenylists(registers),
    ...watchWebhooks(registers),
  }
}

export type { PgPoolStats }
