import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { apiReferenceAssetsDir, consoleAssetsDir } from '@pinfold/console'
import {
  type BlobStore,
  createFileService,
  createTokenVerifier,
  type FileService,
  type RecordStore,
  type TokenVerifier,
} from '@pinfold/core'
import { createFetchHandler, type FetchHandlerOptions, keptAnswersOf } from '@pinfold/http'
import { answerClientErrors, createNodeHandler, drainable } from '@pinfold/http-node'
import { createRemoteJWKSet } from 'jose'
import { blockSources } from './block-sources.js'
import type { WorkerRole } from './cluster/worker-link.js'
import { completionHaltFromEnv } from './completion-halt.js'
import type { ServerConfig } from './config.js'
import { API_REFERENCE_SCRIPT, withConsole } from './console-site.js'
import { startDenylistSources } from './denylist-sources.js'
import { createTxtResolver } from './dns-txt-resolver.js'
import { vectorServiceOptions } from './embedder-config.js'
import { imageOptions } from './image-config.js'
import { prepareIpfsNode, type RunningIpfsNode } from './ipfs-node.js'
import { lazyExtractionPool } from './lazy-extraction-pool.js'
import type { MetricsListener } from './metrics/metrics-endpoint.js'
import type { PrometheusMetrics } from './metrics/prometheus-metrics.js'
import { startPinWorkers } from './pin-workers.js'
import { portError } from './preflight.js'
import { loadOrCreateSecret } from './secret.js'
import { openStorage, type Storage } from './storage.js'
import { type SweeperOptions, startSweepers } from './sweepers.js'
import type { RunningTracing } from './tracing.js'
import { createWebhookTransport } from './webhook-transport.js'
import { startWebhookWorkers } from './webhook-workers.js'
import { ensureWritableDataDir, writesDataDir } from './writable-data-dir.js'

export interface RunningServer {
  url: string
  server: Server
  service: FileService
  /** Where records and blobs live, for the start-up log. */
  storage: string
  /** The HS256 secret for tokens (unless a JWKS verifies them) and for signed URLs. */
  secret: string
  /** The embedded IPFS node, when `PINFOLD_IPFS_LISTEN` asks for one. */
  ipfs: RunningIpfsNode | undefined
  /** The Prometheus metrics, when `PINFOLD_METRICS_TOKEN` or `PINFOLD_METRICS_LISTEN` asks for them. */
  metrics: PrometheusMetrics | undefined
  /** `/metrics` on its own address (`PINFOLD_METRICS_LISTEN`), once listening. */
  metricsUrl: string | undefined
  /** Stops accepting connections, lets requests in flight finish, then stops the IPFS node and closes the stores. */
  close(): Promise<void>
}

/** Builds the service from the configuration and listens. Used by `pinfold serve` and the tests. */
export async function startServer(
  config: ServerConfig,
  extra: Partial<Pick<FetchHandlerOptions, 'onError' | 'cors' | 'basePath' | 'logger'>> & {
    /**
     * Stores to serve instead of those `config` names. They stay the caller's: the server neither
     * migrates nor closes them, and a caller that needs to look into them holds them already.
     */
    stores?: { records: RecordStore; blobs: BlobStore } | undefined
    /**
     * Metrics to report to instead of a registry of the server's own (`createPrometheusMetrics({
     * registry })`), when the metrics settings turn them on.
     */
    metrics?: PrometheusMetrics | undefined
    /** Tracing to report to instead of the OTLP exporter `config.otlpTracesUrl` names (tests: in memory). */
    tracing?: RunningTracing | undefined
    /** This process is a worker of `pinfold serve --workers N` (`cluster/primary.ts`). */
    worker?: WorkerRole | undefined
  } = {},
): Promise<RunningServer> {
  const { stores, metrics: givenMetrics, tracing: givenTracing, worker, ...handlerOptions } = extra
  // alone, or the one worker of a cluster that runs them: the jobs that must run once
  const runsJobs = worker?.runsJobs ?? true
  // The OpenTelemetry SDK and prom-client (with what they import, ~5 MB of heap and a second of
  // start-up on a small machine) are imported only when their settings turn them on.
  const tracing =
    givenTracing ??
    (config.otlpTracesUrl ? (await import('./tracing.js')).startOtlpTracing(config.otlpTracesUrl) : undefined)
  const metricsOn = config.metrics.token !== undefined || config.metrics.listen !== undefined
  const metricsEndpoint = metricsOn ? await import('./metrics/metrics-endpoint.js') : undefined
  const metrics = metricsOn
    ? (givenMetrics ??
      (await import('./metrics/prometheus-metrics.js')).createPrometheusMetrics({
        totalsMaxAgeMs: config.metrics.totalsMaxAgeMs,
      }))
    : undefined
  // before any write into it, so a read-only or foreign directory is one clear start-up error
  if (writesDataDir(config, stores !== undefined)) await ensureWritableDataDir(config.dataDir)
  // first, as it may refuse this Node.js; its fetcher exists before the service (pin jobs fetch
  // through it), the node itself starts once the service does (it serves the service's blocks)
  const preparedIpfs = config.ipfs && runsJobs ? prepareIpfsNode(config.ipfs, config.dataDir, ipfsWarning) : undefined
  const secret = config.authSecret ?? (await loadOrCreateSecret(config.dataDir))
  const storage: Storage = stores
    ? { ...stores, description: 'stores given to startServer', close: async () => {} }
    : await openStorage(config, metrics, worker?.embedded)
  const extraction = lazyExtractionPool()
  const denylists = await startDenylistSources(config.denylists.sources, {
    fileCheckMs: config.denylists.fileCheckMs,
    refreshMs: config.denylists.refreshMs,
    onProblem: (problem) => {
      metrics?.malformedLine(problem)
      console.error(`pinfold: denylist ${problem.list}:${problem.line}: skipped: ${problem.reason}`)
    },
    // a list's rules changed while serving: the held-content scan looks for what they newly block
    onChange: (change) => {
      if ('added' in change) service.heldContent.rulesAdded(change.list, change.added)
      else service.heldContent.listReplaced(change.list)
    },
    onFailure: (list, error) =>
      console.error(
        error === undefined
          ? `pinfold: denylist ${list}: read again`
          : `pinfold: denylist ${list}: cannot be read, its last good version stays in force: ${error}`,
      ),
  })
  metrics?.denylists(denylists.lists)
  const service = createFileService({
    denylists: denylists.lists,
    denylistPrivateReads: config.denylists.privateReads,
    onContentBlocked: (event) => {
      metrics?.contentBlocked(event)
      const what = event.path === '' ? event.target : `${event.target}/${event.path}`
      console.error(`pinfold: denylist ${event.list}:${event.line}: refused ${what} (${event.site})`)
    },
    records: storage.records,
    blobs: storage.blobs,
    maxUploadBytes: config.maxUploadBytes,
    uploadHashing: config.uploadHashing,
    maxUsageRowsPerDay: config.maxUsageRowsPerDay,
    quotas: config.quotas,
    signingSecret: secret,
    // custom gateway domains are verified, and DNSLink records read, in the system's DNS servers
    resolveTxt: createTxtResolver(),
    gatewayDomain: config.gatewayDomain,
    ...config.payments,
    // the embedder loads its model on the first vectorize or query, not at start-up
    ...vectorServiceOptions({ env: config.env, dataDir: config.dataDir }, extraction),
    blockFetchers: [...blockSources(config), ...(preparedIpfs ? [preparedIpfs.fetcher] : [])],
    pinning: {
      maxBytes: config.pinning.maxBytes,
      maxBlocks: config.pinning.maxBlocks,
      jobTimeoutMs: config.pinning.jobTimeoutMs,
      blockTimeoutMs: config.pinning.blockTimeoutMs,
      maxQueuedPerTenant: config.pinning.maxQueuedPerTenant,
      maxRunningPerTenant: config.pinning.maxRunningPerTenant,
      concurrency: config.pinning.concurrency,
      leaseMs: config.pinning.leaseMs,
    },
    resumableUploads: {
      completionLeaseMs: config.uploadCompletionLeaseMs,
      checkpoint: completionHaltFromEnv(config.env, testLog),
    },
    gatewayCache: { ...config.gatewayCache, changes: storage.changes },
    tracer: tracing?.tracer,
    webhookTransport: createWebhookTransport({ allowPrivate: config.webhooks.allowPrivate }),
    webhooks: {
      timeoutMs: config.webhooks.timeoutMs,
      maxResponseBytes: config.webhooks.maxResponseBytes,
      maxAttempts: config.webhooks.maxAttempts,
      backoff: { baseMs: config.webhooks.retryBaseMs, maxMs: config.webhooks.retryMaxMs },
      leaseMs: config.webhooks.leaseMs,
      maxRunningPerTenant: config.webhooks.maxRunningPerTenant,
      maxRunningPerEndpoint: config.webhooks.maxRunningPerEndpoint,
      maxEndpointsPerOwner: config.webhooks.maxEndpoints,
      retentionMs: config.webhooks.retentionMs,
      disableAfterMs: config.webhooks.disableAfterMs,
      secretGraceMs: config.webhooks.secretGraceMs,
      onAttempt: metrics?.webhookAttempt,
    },
  })
  let ipfs: RunningIpfsNode | undefined
  try {
    ipfs = await preparedIpfs?.start(service)
  } catch (error) {
    await Promise.all([storage.close(), extraction.close()])
    throw error
  }
  if (ipfs) metrics?.ipfsPeer(() => ipfs.peer())
  metrics?.totals(service)
  const images = imageOptions(config.images)
  metrics?.pool('extraction', extraction)
  const imageStats = images?.transformer.stats?.bind(images.transformer)
  if (imageStats) metrics?.pool('images', { stats: imageStats })
  const api = createFetchHandler(service, {
    auth: tokenVerifier(config, secret),
    publicUrl: config.publicUrl,
    subdomainHost: config.subdomainHost,
    images,
    rateLimit: config.rateLimit,
    ipfsPeer: ipfs && (() => ipfs.peer()),
    docsScriptUrl: API_REFERENCE_SCRIPT,
    observer: metrics?.http,
    tracer: tracing?.tracer,
    answerCache: { maxBytes: config.answerCacheBytes, maxAgeMs: config.gatewayCache.ttlMs },
    ...handlerOptions,
  })
  const site = withConsole(api, {
    assetsDir: consoleAssetsDir,
    apiReferenceDir: apiReferenceAssetsDir,
    basePath: handlerOptions.basePath,
    apiHostname: config.publicUrl === undefined ? undefined : new URL(config.publicUrl).hostname,
  })
  // on the API's address only behind the operator token; without one, only on an address of its own
  if (metrics && worker) await reportToPrimary(metrics)
  const handler =
    metrics && metricsEndpoint && config.metrics.token !== undefined
      ? metricsEndpoint.withMetricsRoute(site, {
          registry: worker?.clusterMetrics ?? metrics.registry,
          token: config.metrics.token,
          basePath: handlerOptions.basePath,
        })
      : site
  // the operator's and the tenants' deny rules (kept in the record store) apply from the first request
  await Promise.all([service.denylist.load(), service.gatewayDenyRules.load()])
  if (runsJobs) await indexStoredBlocks(service)
  const requests = drainable(
    createNodeHandler(handler, {
      bodyIdleTimeoutMs: config.bodyIdleTimeoutMs,
      trustProxy: config.trustProxy,
      // the console and `/metrics` wrapped around the API answer none of the gateway's paths
      keptAnswers: keptAnswersOf(api),
    }),
  )
  const server = createServer(requests.handler)
  answerClientErrors(server)
  // longer than the idle timeouts of common load balancers and clients (60 s), so the server is
  // not the side closing a kept-alive socket just as a client reuses it for an upload
  server.keepAliveTimeout = 65_000
  server.headersTimeout = 66_000
  // No cap on a whole request: a 25 GiB upload at an honest pace takes hours. Slow clients are
  // bounded by headersTimeout and by the body's idle timeout instead.
  server.requestTimeout = 0
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(config.port, config.host, () => resolve())
    })
  } catch (error) {
    await ipfs?.stop()
    await Promise.all([storage.close(), extraction.close()])
    // taken between `pinfold serve`'s preflight and here: the same message as the preflight's
    throw portError(config.host, config.port, error)
  }
  let metricsListener: MetricsListener | undefined
  try {
    // a cluster's primary listens for the whole cluster
    if (metrics && metricsEndpoint && config.metrics.listen && !worker) {
      metricsListener = await metricsEndpoint.startMetricsListener(config.metrics.listen, {
        registry: metrics.registry,
        token: config.metrics.token,
      })
    }
  } catch (error) {
    server.close()
    await ipfs?.stop()
    await Promise.all([storage.close(), extraction.close()])
    throw error
  }
  // in the background: resumes a pass a crash cut short, or starts one when the lists changed since
  const stopHeldContent = runsJobs
    ? await service.heldContent.start({
        pauseMs: config.denylists.scanPauseMs,
        listDigest: (list) => denylists.digest(list),
        onError: (error) => console.error('pinfold: denylist: the scan of held content failed (tried again)', error),
      })
    : async () => {}
  if (runsJobs) metrics?.heldContentScan(() => service.heldContent.status())
  const stopSweepers = startSweepers(service, runsJobs ? config.sweepers : usageFlushOnly(config.sweepers))
  const stopPinWorkers = startPinWorkers(service, runsJobs ? config.pinning : { ...config.pinning, jobs: 0 })
  const stopWebhookWorkers = startWebhookWorkers(service, runsJobs ? config.webhooks : { ...config.webhooks, jobs: 0 })
  const { port } = server.address() as AddressInfo
  const host = config.host.includes(':') ? `[${config.host}]` : config.host
  return {
    url: `http://${host}:${port}`,
    server,
    service,
    storage: storage.description,
    secret,
    ipfs,
    metrics,
    metricsUrl: metricsListener?.url,
    async close() {
      stopSweepers()
      denylists.stop()
      await metricsListener?.close()
      // no new connections; idle keep-alive ones close now, busy ones once their answer is out
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      server.closeIdleConnections()
      await requests.drain(config.shutdownTimeoutMs ?? 30_000)
      server.closeAllConnections()
      await closed
      // jobs in flight give their requests back to the queue before the stores close
      await stopHeldContent()
      await stopPinWorkers()
      await stopWebhookWorkers()
      // after the last request and job: the node reads blocks through the same stores
      await ipfs?.stop()
      // what the gateway served since the last flush, before the store closes
      await service.usage.flush().catch((error) => console.error('pinfold: usage flush failed', error))
      await Promise.all([storage.close(), extraction.close()])
      // the spans of the last requests and jobs, exported before the process goes
      await tracing?.close().catch((error) => console.error('pinfold: exporting the last spans failed', error))
    },
  }
}

/**
 * The sweeps of a worker that does not run the background jobs: only the flush of the gateway
 * usage it counted itself (counts are added to the stored ones, so each worker flushes its own).
 */
function usageFlushOnly(sweepers: ServerConfig['sweepers']): SweeperOptions {
  return {
    expiryIntervalMs: 0,
    orphanIntervalMs: 0,
    sessionIntervalMs: 0,
    webhookPruneIntervalMs: 0,
    auditRetentionDays: 0,
    usageFlushIntervalMs: sweepers.usageFlushIntervalMs,
  }
}

/** A worker's registry answers the primary's `AggregatorRegistry`, which sums the workers' metrics. */
async function reportToPrimary(metrics: PrometheusMetrics): Promise<void> {
  const { AggregatorRegistry } = await import('prom-client')
  // constructing one is what makes prom-client answer the primary's requests in a worker
  new AggregatorRegistry()
  AggregatorRegistry.setRegistries([metrics.registry])
}

/**
 * Contents stored before the block index existed are indexed before the server answers: until
 * then the gateway could not find any of their blocks. A content that cannot be indexed (its blob
 * is gone) is reported and left; the rest of the server works.
 */
async function indexStoredBlocks(service: FileService): Promise<void> {
  const { indexed, failed } = await service.maintenance.indexBlocks()
  if (indexed > 0) console.error(`pinfold: indexed the blocks of ${indexed} stored contents`)
  for (const { cid, error } of failed) console.error(`pinfold: cannot index the blocks of ${cid}:`, error)
}

/** A line for a crash test to wait for, in the shape of the server's other log lines. */
function testLog(fields: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), level: 'info', ...fields })}\n`)
}

/** What the IPFS node could not do (serve a block that failed its hash check, announce a root): logged, never fatal. */
function ipfsWarning(message: string, error: unknown): void {
  console.error(`pinfold: ipfs: ${message}:`, error)
}

function tokenVerifier(config: ServerConfig, secret: string): TokenVerifier {
  const claims = {
    issuer: config.jwtIssuer,
    audience: config.jwtAudience,
    maxLifetimeSeconds: config.jwtMaxLifetimeSeconds,
  }
  if (config.jwksUrl) return createTokenVerifier({ keys: createRemoteJWKSet(new URL(config.jwksUrl)), ...claims })
  return createTokenVerifier({ secret, ...claims })
}
