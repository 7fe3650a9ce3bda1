import { optionChecks } from '@pinfold/core'
import type { RateLimitOptions } from '@pinfold/http'
import { DEFAULT_BODY_IDLE_TIMEOUT_MS } from '@pinfold/http-node'
import { type ImageConfig, imageConfigFromEnv } from './image-config.js'
import { paymentOptionsFromEnv } from './payments-config.js'

/** The server's settings, read from the environment (see the configuration table in the README). */
export interface ServerConfig {
  port: number
  host: string
  dataDir: string
  storage: 'embedded' | 'memory'
  databaseUrl: string | undefined
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
  sweepers: { expiryIntervalMs: number; orphanIntervalMs: number; usageFlushIntervalMs: number }
  /** Pin by CID (`PINFOLD_IPFS_GATEWAYS`, `PINFOLD_PIN_*`): where blocks come from, the jobs' bounds, the worker. */
  pinning: {
    /** Trustless gateways' base URLs; empty: no gateway source. */
    gateways: string[]
    /** Largest DAG a job stores; unset: the upload limit. */
    maxBytes: number | undefined
    maxBlocks: number
    jobTimeoutMs: number
    /** Blocks one job fetches at the same time. */
    concurrency: number
    /** How long an idle worker waits before asking the queue again; 0 runs no worker. */
    pollIntervalMs: number
    /** Jobs this process runs at the same time. */
    jobs: number
    /** How long a claim lasts unrenewed: a crashed instance's job is taken over after it. */
    leaseMs: number
  }
  /** A request body sending no byte for this long is cut with a 408; 0 disables (`PINFOLD_BODY_IDLE_TIMEOUT_MS`). */
  bodyIdleTimeoutMs: number
  /** How long a shutdown waits for requests in flight (uploads) before cutting them (`PINFOLD_SHUTDOWN_TIMEOUT_MS`). */
  shutdownTimeoutMs?: number
  s3: {
    bucket: string | undefined
    endpoint: string | undefined
    region: string | undefined
    prefix: string | undefined
    forcePathStyle: boolean
  }
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
    databaseUrl: env.DATABASE_URL || undefined,
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
    },
    pinning: {
      gateways: gatewayList(env.PINFOLD_IPFS_GATEWAYS),
      maxBytes: env.PINFOLD_PIN_MAX_BYTES ? integer(env.PINFOLD_PIN_MAX_BYTES, 'PINFOLD_PIN_MAX_BYTES', 0) : undefined,
      maxBlocks: integer(env.PINFOLD_PIN_MAX_BLOCKS, 'PINFOLD_PIN_MAX_BLOCKS', 1_000_000),
      jobTimeoutMs: integer(env.PINFOLD_PIN_TIMEOUT_MS, 'PINFOLD_PIN_TIMEOUT_MS', 30 * 60_000),
      concurrency: integer(env.PINFOLD_PIN_CONCURRENCY, 'PINFOLD_PIN_CONCURRENCY', 8),
      pollIntervalMs: integer(env.PINFOLD_PIN_POLL_MS, 'PINFOLD_PIN_POLL_MS', 2_000),
      jobs: integer(env.PINFOLD_PIN_JOBS, 'PINFOLD_PIN_JOBS', 2),
      leaseMs: integer(env.PINFOLD_PIN_LEASE_MS, 'PINFOLD_PIN_LEASE_MS', 60_000),
    },
    bodyIdleTimeoutMs: integer(
      env.PINFOLD_BODY_IDLE_TIMEOUT_MS,
      'PINFOLD_BODY_IDLE_TIMEOUT_MS',
      DEFAULT_BODY_IDLE_TIMEOUT_MS,
    ),
    shutdownTimeoutMs: integer(env.PINFOLD_SHUTDOWN_TIMEOUT_MS, 'PINFOLD_SHUTDOWN_TIMEOUT_MS', 30_000),
    s3: {
      bucket: env.PINFOLD_S3_BUCKET || undefined,
      endpoint: env.PINFOLD_S3_ENDPOINT || undefined,
      region: env.PINFOLD_S3_REGION || undefined,
      prefix: env.PINFOLD_S3_PREFIX || undefined,
      forcePathStyle: env.PINFOLD_S3_FORCE_PATH_STYLE === 'true' || env.PINFOLD_S3_FORCE_PATH_STYLE === '1',
    },
  }
}

function integer(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined || value === '') return fallback
  return check.nonNegativeInteger(name, Number(value))
}

/** Comma-separated http(s) base URLs; blanks between commas are ignored. */
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
