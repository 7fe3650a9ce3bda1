import { availableParallelism } from 'node:os'
import { DEFAULT_COMPLETION_LEASE_MS, optionChecks, type TenantLimits, type UploadHashing } from '@pinfold/core'
import type { RateLimitOptions } from '@pinfold/http'
import { DEFAULT_BODY_IDLE_TIMEOUT_MS } from '@pinfold/http-node'
import { type DenylistSource, parseDenylistSources } from './denylist-sources.js'
import { type ImageConfig, imageConfigFromEnv } from './image-config.js'
import { paymentOptionsFromEnv } from './payments-config.js'
import { quotaDefaultsFromEnv } from './quota-config.js'

/** The server's settings, read from the environment (see the configuration table in the README). */
export interface ServerConfig {
  port: number
  host: string
  dataDir: string
  storage: 'embedded' | 'memory'
  /**
   * Processes serving the one port (`PINFOLD_WORKERS`, `pinfold serve --workers N`); default the
   * machine's cores with `DATABASE_URL`, else 1 (opt in on the embedded default; memory stores live
   * in one process and allow only 1).
   */
  workers: number
  /**
   * The gateway's read cache: `PINFOLD_GATEWAY_CACHE_MB` of memory (default 64; 0 turns it off),
   * `PINFOLD_GATEWAY_CACHE_TTL_MS` the longest a changeable fact is kept (default 60 000: how long
   * another instance's change can go unseen here if its notification is lost).
   */
  gatewayCache: { maxBytes: number; ttlMs: number }
  /**
   * The gateway's answer cache: `PINFOLD_GATEWAY_ANSWER_CACHE_MB` of memory (default 16; 0 turns
   * it off) for whole public gateway answers of up to 64 KiB, answered again without running the
   * handler; each kept at most `PINFOLD_GATEWAY_CACHE_TTL_MS`, and never past a change to what it
   * was built on.
   */
  answerCacheBytes: number
  databaseUrl: string | undefined
  /**
   * Hot statements as named prepared statements on the PostgreSQL server
   * (`PINFOLD_DATABASE_PREPARED_STATEMENTS`, default true); false behind a pooler that moves a
   * session's statements between server connections (PgBouncer in transaction mode before 1.21).
   */
  databasePreparedStatements: boolean
  authSecret: string | undefined
  jwksUrl: string | undefined
  jwtIssuer: string | undefined
  jwtAudience: string | undefined
  /** Tokens expiring further ahead are refused (`PINFOLD_JWT_MAX_LIFETIME_SECONDS`); unset: no cap. */
  jwtMaxLifetimeSeconds: number | undefined
  publicUrl: string | undefined
  /** Reverse proxies in front whose `X-Forwarded-*` headers are believed (`PINFOLD_TRUST_PROXY`); 0: none. */
  trustProxy: number
  /** `{cidv1}.ipfs.{subdomainHost}` is the subdomain gateway (`PINFOLD_SUBDOMAIN_GATEWAY_HOST`); default: the public URL's host name, else any host. */
  subdomainHost: string | undefined
  /** Dedicated gateways are `{name}.{gatewayDomain}` (`PINFOLD_GATEWAY_DOMAIN`); unset: custom domains only. */
  gatewayDomain: string | undefined
  /** Image optimisation on tenants' gateways (`PINFOLD_IMAGES`, `PINFOLD_IMAGE_*`); `undefined`: off. */
  images: ImageConfig | undefined
  maxUploadBytes: number | undefined
  /** Where a single-request upload's SHA-256 runs (`PINFOLD_UPLOAD_HASHING`, default `auto`: the thread pool from 4 cores). */
  uploadHashing: UploadHashing
  /** Distinct gateway analytics rows per tenant and day (`PINFOLD_USAGE_MAX_ROWS_PER_DAY`); the rest count as `other`. */
  maxUsageRowsPerDay: number
  /** Every tenant's default limits (`PINFOLD_QUOTA_*`); `null` is no limit. */
  quotas: TenantLimits
  /** Requests per minute per bearer token / per client address (`PINFOLD_RATE_LIMIT_PER_TOKEN`, `…_PER_IP`); unset = no limit. */
  rateLimit?: RateLimitOptions
  /** The environment the configuration was read from (embedder settings are read from it lazily). */
  env: NodeJS.ProcessEnv
  /** Pay-per-request settings (`PINFOLD_X402_*`), validated at start-up. */
  payments: ReturnType<typeof paymentOptionsFromEnv>
  /**
   * Housekeeping periods; 0 disables (`PINFOLD_EXPIRY_SWEEP_MS`, `PINFOLD_ORPHAN_SWEEP_MS`), and how
   * often gateway usage is written (`PINFOLD_USAGE_FLUSH_MS`: what a crash may lose).
   */
  sweepers: {
    expiryIntervalMs: number
    orphanIntervalMs: number
    usageFlushIntervalMs: number
    /** Days the audit log keeps an event (`PINFOLD_AUDIT_RETENTION_DAYS`); 0 keeps every event. */
    auditRetentionDays: number
  }
  /**
   * Deny lists (`PINFOLD_DENYLISTS`, `PINFOLD_DENYLIST_*`): files and HTTP subscriptions in the
   * compact denylist format, how often each kind is re-read, and whether tenants' own reads of
   * their files are refused too.
   */
  denylists: {
    sources: DenylistSource[]
    fileCheckMs: number
    refreshMs: number
    privateReads: boolean
    /** Pause after each page of the scan of held content against the lists (`PINFOLD_DENYLIST_SCAN_PAUSE_MS`). */
    scanPauseMs: number
  }
  /** Pin by CID (`PINFOLD_IPFS_GATEWAYS`, `PINFOLD_PIN_*`): where blocks come from, the jobs' bounds, the worker. */
  pinning: {
    /** Trustless gateways' base URLs; empty: no gateway source. */
    gateways: string[]
    /** Largest DAG a job stores; unset: the upload limit. */
    maxBytes: number | undefined
    maxBlocks: number
    jobTimeoutMs: number
    /** How long one source may take over one block before the next is asked. */
    blockTimeoutMs: number
    /** Requests one tenant may have queued or running; more are refused with 429. */
    maxQueuedPerTenant: number
    /** Requests of one tenant running at once across the deployment. */
    maxRunningPerTenant: number
    /** Blocks one job fetches at the same time. */
    concurrency: number
    /** How long an idle worker waits before asking the queue again; 0 runs no worker. */
    pollIntervalMs: number
    /** Jobs this process runs at the same time. */
    jobs: number
    /** How long a claim lasts unrenewed: a crashed instance's job is taken over after it. */
    leaseMs: number
  }
  /** Signed webhooks (`PINFOLD_WEBHOOK_*`): the delivery loops, the bounds of an attempt, retries, fairness. */
  webhooks: {
    /** Deliver to loopback, private, link-local… addresses too (a receiver on the operator's network). */
    allowPrivate: boolean
    /** How long an idle loop waits before asking the outbox again; 0 runs no webhook loop here. */
    pollIntervalMs: number
    /** Deliveries this instance sends at the same time. */
    jobs: number
    timeoutMs: number
    maxResponseBytes: number
    maxAttempts: number
    retryBaseMs: number
    retryMaxMs: number
    leaseMs: number
    /** Deliveries of one tenant (or the operator) being sent at once across the deployment. */
    maxRunningPerTenant: number
    /** Deliveries to one endpoint being sent at once across the deployment. */
    maxRunningPerEndpoint: number
    /** Endpoints one tenant (or the operator) may register. */
    maxEndpoints: number
    /** How long ended deliveries stay listed; 0 keeps them. */
    retentionMs: number
    /** An endpoint every attempt to which failed for this long is disabled; 0 never. */
    disableAfterMs: number
    /** How long a rotated-out secret still signs beside the new one. */
    secretGraceMs: number
  }
  /** A request body sending no byte for this long is cut with a 408; 0 disables (`PINFOLD_BODY_IDLE_TIMEOUT_MS`). */
  bodyIdleTimeoutMs: number
  /** How long a shutdown waits for requests in flight (uploads) before cutting them (`PINFOLD_SHUTDOWN_TIMEOUT_MS`). */
  shutdownTimeoutMs?: number
  /**
   * A resumable upload's completion claim, renewed while the completion runs; after a crash, a
   * retry takes the completion over this long after the last renewal (`PINFOLD_UPLOAD_COMPLETION_LEASE_MS`).
   */
  uploadCompletionLeaseMs?: number
  /**
   * Vector search tuning for PostgreSQL/PGlite records (`PINFOLD_VECTOR_*`); unset: the adapter's
   * defaults (bench/README.md has the measurements behind them). Ranges are checked by the adapter.
   */
  vectors: {
    efSearch: number | undefined
    exactSearchMaxVectors: number | undefined
    hnswM: number | undefined
    hnswEfConstruction: number | undefined
    maxScanTuples: number | undefined
  }
  /**
   * `GET /metrics` (Prometheus): on the API's address behind an operator token
   * (`PINFOLD_METRICS_TOKEN`), and/or on an address of its own (`PINFOLD_METRICS_LISTEN`,
   * `host:port`), where the token is asked too when set. Neither set: no metrics (`/metrics` is a 404).
   */
  metrics: {
    token: string | undefined
    listen: { host: string; port: number } | undefined
    /** How long stored totals and the pin queue are reused between scrapes (`PINFOLD_METRICS_TOTALS_MAX_AGE_MS`). */
    totalsMaxAgeMs: number
  }
  /**
   * Where OpenTelemetry spans are exported (OTLP over HTTP): `PINFOLD_OTLP_ENDPOINT`, else the
   * standard `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` (the full URL) or `OTEL_EXPORTER_OTLP_ENDPOINT`
   * (a base URL, `/v1/traces` appended). `undefined`: no tracing, nothing wrapped.
   */
  otlpTracesUrl: string | undefined
  /** The embedded IPFS node (`PINFOLD_IPFS_*`); `undefined` without `PINFOLD_IPFS_LISTEN`: libp2p is never loaded. */
  ipfs: IpfsConfig | undefined
  s3: {
    bucket: string | undefined
    endpoint: string | undefined
    region: string | undefined
    prefix: string | undefined
    forcePathStyle: boolean
  }
}

export interface IpfsConfig {
  /** Multiaddrs the node listens on (`PINFOLD_IPFS_LISTEN`, comma-separated). */
  listen: string[]
  /** Multiaddrs it tells peers instead (`PINFOLD_IPFS_ANNOUNCE`), behind NAT or a proxy. */
  announce: string[]
  /** A base64 libp2p private key (`PINFOLD_IPFS_PEER_KEY`); unset: kept in the data directory. */
  peerKey: string | undefined
  /** `PINFOLD_IPFS_DHT`: `off` (default), `client` or `server`. */
  dht: 'off' | 'client' | 'server'
  /** `PINFOLD_IPFS_BOOTSTRAP` (comma-separated multiaddrs); unset: the Amino bootstrap peers. */
  bootstrap: string[] | undefined
  /**
   * `PINFOLD_IPFS_PRIVATE_ADDRESSES`: a LAN or test network: keep private and loopback addresses in
   * DHT records and dial them (host nodes, DHT and bootstrap peers). Off, the node dials public IPs
   * only, each checked after name resolution.
   */
  privateAddresses: boolean
  /** `PINFOLD_IPFS_REPROVIDE_INTERVAL_MS` (default 22 h) and `PINFOLD_IPFS_PROVIDE_CONCURRENCY` (default 8). */
  reprovideIntervalMs: number | undefined
  provideConcurrency: number | undefined
}

const check = optionChecks('@pinfold/server', 'readConfig', 'variable')

export function readConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const storage = env.PINFOLD_STORAGE ?? 'embedded'
  if (storage !== 'embedded' && storage !== 'memory') {
    throw check.error('PINFOLD_STORAGE', `must be "embedded" or "memory", got "${storage}"`)
  }
  return {
    port: integer(env.PORT, 'PORT', 3000),
    host: env.HOST || '127.0.0.1',
    dataDir: env.PINFOLD_DATA_DIR || './.pinfold',
    storage,
    workers: workers(env, storage),
    gatewayCache: {
      maxBytes: integer(env.PINFOLD_GATEWAY_CACHE_MB, 'PINFOLD_GATEWAY_CACHE_MB', 64) * 1024 * 1024,
      ttlMs: positiveInteger(env.PINFOLD_GATEWAY_CACHE_TTL_MS, 'PINFOLD_GATEWAY_CACHE_TTL_MS', 60_000),
    },
    answerCacheBytes: integer(env.PINFOLD_GATEWAY_ANSWER_CACHE_MB, 'PINFOLD_GATEWAY_ANSWER_CACHE_MB', 16) * 1024 * 1024,
    databaseUrl: env.DATABASE_URL || undefined,
    databasePreparedStatements: yesNo(
      env.PINFOLD_DATABASE_PREPARED_STATEMENTS,
      'PINFOLD_DATABASE_PREPARED_STATEMENTS',
      true,
    ),
    authSecret: env.PINFOLD_AUTH_SECRET || undefined,
    jwksUrl: env.PINFOLD_JWKS_URL || undefined,
    jwtIssuer: env.PINFOLD_JWT_ISSUER || undefined,
    jwtAudience: env.PINFOLD_JWT_AUDIENCE || undefined,
    jwtMaxLifetimeSeconds: env.PINFOLD_JWT_MAX_LIFETIME_SECONDS
      ? integer(env.PINFOLD_JWT_MAX_LIFETIME_SECONDS, 'PINFOLD_JWT_MAX_LIFETIME_SECONDS', 0)
      : undefined,
    publicUrl: env.PINFOLD_PUBLIC_URL || undefined,
    trustProxy: integer(env.PINFOLD_TRUST_PROXY, 'PINFOLD_TRUST_PROXY', 0),
    subdomainHost: env.PINFOLD_SUBDOMAIN_GATEWAY_HOST || undefined,
    gatewayDomain: check.optionalHostname('PINFOLD_GATEWAY_DOMAIN', env.PINFOLD_GATEWAY_DOMAIN || undefined),
    images: imageConfigFromEnv(env),
    maxUploadBytes: env.PINFOLD_MAX_UPLOAD_BYTES
      ? integer(env.PINFOLD_MAX_UPLOAD_BYTES, 'PINFOLD_MAX_UPLOAD_BYTES', 0)
      : undefined,
    uploadHashing: uploadHashing(env.PINFOLD_UPLOAD_HASHING),
    maxUsageRowsPerDay: check.positiveInteger(
      'PINFOLD_USAGE_MAX_ROWS_PER_DAY',
      env.PINFOLD_USAGE_MAX_ROWS_PER_DAY ? Number(env.PINFOLD_USAGE_MAX_ROWS_PER_DAY) : 10_000,
    ),
    quotas: quotaDefaultsFromEnv(env),
    env,
    rateLimit: {
      perToken: perMinute(env.PINFOLD_RATE_LIMIT_PER_TOKEN, 'PINFOLD_RATE_LIMIT_PER_TOKEN'),
      perIp: perMinute(env.PINFOLD_RATE_LIMIT_PER_IP, 'PINFOLD_RATE_LIMIT_PER_IP'),
    },
    payments: paymentOptionsFromEnv(env),
    sweepers: {
      expiryIntervalMs: integer(env.PINFOLD_EXPIRY_SWEEP_MS, 'PINFOLD_EXPIRY_SWEEP_MS', 60_000),
      orphanIntervalMs: integer(env.PINFOLD_ORPHAN_SWEEP_MS, 'PINFOLD_ORPHAN_SWEEP_MS', 3_600_000),
      usageFlushIntervalMs: integer(env.PINFOLD_USAGE_FLUSH_MS, 'PINFOLD_USAGE_FLUSH_MS', 5_000),
      auditRetentionDays: integer(env.PINFOLD_AUDIT_RETENTION_DAYS, 'PINFOLD_AUDIT_RETENTION_DAYS', 365),
    },
    denylists: {
      sources: denylistSources(env.PINFOLD_DENYLISTS),
      fileCheckMs: positiveInteger(env.PINFOLD_DENYLIST_FILE_CHECK_MS, 'PINFOLD_DENYLIST_FILE_CHECK_MS', 1_000),
      refreshMs: positiveInteger(env.PINFOLD_DENYLIST_REFRESH_MS, 'PINFOLD_DENYLIST_REFRESH_MS', 60_000),
      privateReads: yesNo(env.PINFOLD_DENYLIST_PRIVATE_READS, 'PINFOLD_DENYLIST_PRIVATE_READS', true),
      scanPauseMs: integer(env.PINFOLD_DENYLIST_SCAN_PAUSE_MS, 'PINFOLD_DENYLIST_SCAN_PAUSE_MS', 50),
    },
    pinning: {
      gateways: gatewayList(env.PINFOLD_IPFS_GATEWAYS),
      maxBytes: env.PINFOLD_PIN_MAX_BYTES ? integer(env.PINFOLD_PIN_MAX_BYTES, 'PINFOLD_PIN_MAX_BYTES', 0) : undefined,
      maxBlocks: integer(env.PINFOLD_PIN_MAX_BLOCKS, 'PINFOLD_PIN_MAX_BLOCKS', 1_000_000),
      jobTimeoutMs: integer(env.PINFOLD_PIN_TIMEOUT_MS, 'PINFOLD_PIN_TIMEOUT_MS', 30 * 60_000),
      blockTimeoutMs: positiveInteger(env.PINFOLD_PIN_BLOCK_TIMEOUT_MS, 'PINFOLD_PIN_BLOCK_TIMEOUT_MS', 20_000),
      maxQueuedPerTenant: positiveInteger(env.PINFOLD_PIN_TENANT_QUEUE, 'PINFOLD_PIN_TENANT_QUEUE', 100),
      // one worker short of all of them, so another tenant's request always finds one free
      maxRunningPerTenant: positiveInteger(
        env.PINFOLD_PIN_TENANT_JOBS,
        'PINFOLD_PIN_TENANT_JOBS',
        Math.max(1, integer(env.PINFOLD_PIN_JOBS, 'PINFOLD_PIN_JOBS', 2) - 1),
      ),
      concurrency: integer(env.PINFOLD_PIN_CONCURRENCY, 'PINFOLD_PIN_CONCURRENCY', 8),
      pollIntervalMs: integer(env.PINFOLD_PIN_POLL_MS, 'PINFOLD_PIN_POLL_MS', 2_000),
      jobs: integer(env.PINFOLD_PIN_JOBS, 'PINFOLD_PIN_JOBS', 2),
      leaseMs: integer(env.PINFOLD_PIN_LEASE_MS, 'PINFOLD_PIN_LEASE_MS', 60_000),
    },
    webhooks: webhookSettings(env),
    bodyIdleTimeoutMs: integer(
      env.PINFOLD_BODY_IDLE_TIMEOUT_MS,
      'PINFOLD_BODY_IDLE_TIMEOUT_MS',
      DEFAULT_BODY_IDLE_TIMEOUT_MS,
    ),
    shutdownTimeoutMs: integer(env.PINFOLD_SHUTDOWN_TIMEOUT_MS, 'PINFOLD_SHUTDOWN_TIMEOUT_MS', 30_000),
    uploadCompletionLeaseMs: integer(
      env.PINFOLD_UPLOAD_COMPLETION_LEASE_MS,
      'PINFOLD_UPLOAD_COMPLETION_LEASE_MS',
      DEFAULT_COMPLETION_LEASE_MS,
    ),
    vectors: {
      efSearch: optionalInteger(env.PINFOLD_VECTOR_EF_SEARCH, 'PINFOLD_VECTOR_EF_SEARCH'),
      exactSearchMaxVectors: optionalInteger(env.PINFOLD_VECTOR_EXACT_MAX, 'PINFOLD_VECTOR_EXACT_MAX'),
      hnswM: optionalInteger(env.PINFOLD_VECTOR_HNSW_M, 'PINFOLD_VECTOR_HNSW_M'),
      hnswEfConstruction: optionalInteger(
        env.PINFOLD_VECTOR_HNSW_EF_CONSTRUCTION,
        'PINFOLD_VECTOR_HNSW_EF_CONSTRUCTION',
      ),
      maxScanTuples: optionalInteger(env.PINFOLD_VECTOR_MAX_SCAN_TUPLES, 'PINFOLD_VECTOR_MAX_SCAN_TUPLES'),
    },
    metrics: metricsConfig(env),
    otlpTracesUrl: otlpTracesUrl(env),
    ipfs: ipfsConfig(env),
    s3: {
      bucket: env.PINFOLD_S3_BUCKET || undefined,
      endpoint: env.PINFOLD_S3_ENDPOINT || undefined,
      region: env.PINFOLD_S3_REGION || undefined,
      prefix: env.PINFOLD_S3_PREFIX || undefined,
      forcePathStyle: env.PINFOLD_S3_FORCE_PATH_STYLE === 'true' || env.PINFOLD_S3_FORCE_PATH_STYLE === '1',
    },
  }
}

const UPLOAD_HASHINGS: readonly UploadHashing[] = ['main-thread', 'thread-pool', 'auto']

function uploadHashing(value: string | undefined): UploadHashing {
  if (!value) return 'auto'
  if (!(UPLOAD_HASHINGS as readonly string[]).includes(value))
    throw check.error('PINFOLD_UPLOAD_HASHING', `must be "main-thread", "thread-pool" or "auto", got "${value}"`)
  return value as UploadHashing
}

/**
 * Memory stores belong to one process; more than one worker needs records and blobs they share.
 * One per core by default only on a PostgreSQL server, where workers are independent instances; on
 * the embedded default every worker's statements run on the one PGlite the primary owns, and two
 * workers there measured more CPU per request than one (bench/README.md, "Every core"): opt in.
 */
function workers(env: NodeJS.ProcessEnv, storage: ServerConfig['storage']): number {
  const shared = storage === 'embedded' || (Boolean(env.DATABASE_URL) && Boolean(env.PINFOLD_S3_BUCKET))
  const fallback = shared && env.DATABASE_URL ? availableParallelism() : 1
  const count = positiveInteger(env.PINFOLD_WORKERS, 'PINFOLD_WORKERS', fallback)
  if (count > 1 && !shared) {
    throw check.error(
      'PINFOLD_WORKERS',
      `is ${count}, but PINFOLD_STORAGE=memory keeps records or blobs in one process: use 1, or the embedded default, or DATABASE_URL with PINFOLD_S3_BUCKET`,
    )
  }
  return count
}

const list = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)

function otlpTracesUrl(env: NodeJS.ProcessEnv): string | undefined {
  const base = (name: string) => {
    const value = env[name] || undefined
    return value && `${httpUrl(name, value).replace(/\/+$/, '')}/v1/traces`
  }
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || undefined
  return (
    base('PINFOLD_OTLP_ENDPOINT') ??
    (traces && httpUrl('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', traces)) ??
    base('OTEL_EXPORTER_OTLP_ENDPOINT')
  )
}

function httpUrl(name: string, value: string): string {
  if (!URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol)) {
    throw check.error(name, `must be an http(s) URL such as http://collector:4318, got "${value}"`)
  }
  return value
}

/** A token shorter than this could be guessed by scraping: refused at start-up. */
const MIN_METRICS_TOKEN_LENGTH = 16

function metricsConfig(env: NodeJS.ProcessEnv): ServerConfig['metrics'] {
  const token = env.PINFOLD_METRICS_TOKEN || undefined
  if (token !== undefined && (token.length < MIN_METRICS_TOKEN_LENGTH || /\s/.test(token))) {
    throw check.error(
      'PINFOLD_METRICS_TOKEN',
      `must be at least ${MIN_METRICS_TOKEN_LENGTH} characters, without spaces`,
    )
  }
  const totalsMaxAgeMs = integer(env.PINFOLD_METRICS_TOTALS_MAX_AGE_MS, 'PINFOLD_METRICS_TOTALS_MAX_AGE_MS', 60_000)
  const listen = env.PINFOLD_METRICS_LISTEN || undefined
  if (listen === undefined) return { token, listen: undefined, totalsMaxAgeMs }
  const match = listen.match(/^(\[[0-9A-Fa-f:.]+\]|[^:[\]\s]+):(\d{1,5})$/)
  const port = Number(match?.[2])
  if (!match?.[1] || port > 65535) {
    throw check.error('PINFOLD_METRICS_LISTEN', `must be host:port (127.0.0.1:9464, [::1]:9464), got "${listen}"`)
  }
  return { token, listen: { host: match[1].replace(/^\[(.*)\]$/, '$1'), port }, totalsMaxAgeMs }
}

function ipfsConfig(env: NodeJS.ProcessEnv): IpfsConfig | undefined {
  const listen = list(env.PINFOLD_IPFS_LISTEN)
  const dht = env.PINFOLD_IPFS_DHT || 'off'
  if (dht !== 'off' && dht !== 'client' && dht !== 'server') {
    throw check.error('PINFOLD_IPFS_DHT', `must be "off", "client" or "server", got "${dht}"`)
  }
  if (listen.length === 0) {
    // the node is what announces: DHT settings without one would silently do nothing
    if (dht !== 'off') throw check.error('PINFOLD_IPFS_DHT', 'needs PINFOLD_IPFS_LISTEN (the node that announces)')
    return undefined
  }
  for (const addr of [...listen, ...list(env.PINFOLD_IPFS_ANNOUNCE), ...list(env.PINFOLD_IPFS_BOOTSTRAP)]) {
    if (!addr.startsWith('/')) throw check.error('PINFOLD_IPFS_*', `"${addr}" is not a multiaddr (they start with /)`)
  }
  const bootstrap = list(env.PINFOLD_IPFS_BOOTSTRAP)
  return {
    listen,
    announce: list(env.PINFOLD_IPFS_ANNOUNCE),
    peerKey: env.PINFOLD_IPFS_PEER_KEY || undefined,
    dht,
    bootstrap: bootstrap.length > 0 ? bootstrap : undefined,
    privateAddresses: env.PINFOLD_IPFS_PRIVATE_ADDRESSES === 'true',
    reprovideIntervalMs: env.PINFOLD_IPFS_REPROVIDE_INTERVAL_MS
      ? check.positiveInteger('PINFOLD_IPFS_REPROVIDE_INTERVAL_MS', Number(env.PINFOLD_IPFS_REPROVIDE_INTERVAL_MS))
      : undefined,
    provideConcurrency: env.PINFOLD_IPFS_PROVIDE_CONCURRENCY
      ? check.positiveInteger('PINFOLD_IPFS_PROVIDE_CONCURRENCY', Number(env.PINFOLD_IPFS_PROVIDE_CONCURRENCY))
      : undefined,
  }
}

function integer(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined || value === '') return fallback
  return check.nonNegativeInteger(name, Number(value))
}

function positiveInteger(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined || value === '') return fallback
  return check.positiveInteger(name, Number(value))
}

function optionalInteger(value: string | undefined, name: string): number | undefined {
  return value === undefined || value === '' ? undefined : integer(value, name, 0)
}

/** Comma-separated http(s) base URLs; blanks between commas are ignored. */
function denylistSources(value: string | undefined): DenylistSource[] {
  try {
    return parseDenylistSources(value)
  } catch (error) {
    throw check.error('PINFOLD_DENYLISTS', (error as Error).message.replace(/^PINFOLD_DENYLISTS: /, ''))
  }
}

function webhookSettings(env: NodeJS.ProcessEnv): ServerConfig['webhooks'] {
  const jobs = integer(env.PINFOLD_WEBHOOK_JOBS, 'PINFOLD_WEBHOOK_JOBS', 4)
  return {
    allowPrivate: yesNo(env.PINFOLD_WEBHOOK_ALLOW_PRIVATE, 'PINFOLD_WEBHOOK_ALLOW_PRIVATE', false),
    pollIntervalMs: integer(env.PINFOLD_WEBHOOK_POLL_MS, 'PINFOLD_WEBHOOK_POLL_MS', 1_000),
    jobs,
    timeoutMs: positiveInteger(env.PINFOLD_WEBHOOK_TIMEOUT_MS, 'PINFOLD_WEBHOOK_TIMEOUT_MS', 10_000),
    maxResponseBytes: integer(env.PINFOLD_WEBHOOK_MAX_RESPONSE_BYTES, 'PINFOLD_WEBHOOK_MAX_RESPONSE_BYTES', 65_536),
    maxAttempts: positiveInteger(env.PINFOLD_WEBHOOK_MAX_ATTEMPTS, 'PINFOLD_WEBHOOK_MAX_ATTEMPTS', 10),
    retryBaseMs: positiveInteger(env.PINFOLD_WEBHOOK_RETRY_BASE_MS, 'PINFOLD_WEBHOOK_RETRY_BASE_MS', 30_000),
    retryMaxMs: positiveInteger(env.PINFOLD_WEBHOOK_RETRY_MAX_MS, 'PINFOLD_WEBHOOK_RETRY_MAX_MS', 6 * 3_600_000),
    leaseMs: positiveInteger(env.PINFOLD_WEBHOOK_LEASE_MS, 'PINFOLD_WEBHOOK_LEASE_MS', 60_000),
    // one loop short of all of them, so another tenant's delivery always finds one free
    maxRunningPerTenant: positiveInteger(
      env.PINFOLD_WEBHOOK_TENANT_JOBS,
      'PINFOLD_WEBHOOK_TENANT_JOBS',
      Math.max(1, jobs - 1),
    ),
    maxRunningPerEndpoint: positiveInteger(env.PINFOLD_WEBHOOK_ENDPOINT_JOBS, 'PINFOLD_WEBHOOK_ENDPOINT_JOBS', 1),
    maxEndpoints: positiveInteger(env.PINFOLD_WEBHOOK_MAX_ENDPOINTS, 'PINFOLD_WEBHOOK_MAX_ENDPOINTS', 20),
    retentionMs: integer(env.PINFOLD_WEBHOOK_RETENTION_MS, 'PINFOLD_WEBHOOK_RETENTION_MS', 30 * 86_400_000),
    disableAfterMs: integer(env.PINFOLD_WEBHOOK_DISABLE_AFTER_MS, 'PINFOLD_WEBHOOK_DISABLE_AFTER_MS', 5 * 86_400_000),
    secretGraceMs: integer(env.PINFOLD_WEBHOOK_SECRET_GRACE_MS, 'PINFOLD_WEBHOOK_SECRET_GRACE_MS', 86_400_000),
  }
}

function yesNo(value: string | undefined, name: string, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback
  if (value === 'true' || value === 'false') return value === 'true'
  throw check.error(name, `must be "true" or "false", got "${value}"`)
}

function gatewayList(value: string | undefined): string[] {
  const urls = (value ?? '')
    .split(',')
    .map((url) => url.trim())
    .filter(Boolean)
  return urls.map((url) => check.httpUrl('PINFOLD_IPFS_GATEWAYS', url).toString())
}

/** `N` requests per minute; unset, empty or 0 means no limit. */
function perMinute(value: string | undefined, name: string): { limit: number; windowMs: number } | undefined {
  const limit = integer(value, name, 0)
  return limit > 0 ? { limit, windowMs: 60_000 } : undefined
}
