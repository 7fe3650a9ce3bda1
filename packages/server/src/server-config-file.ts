import { readFile } from 'node:fs/promises'
import { PinfoldError } from '@pinfold/core'
import { parse, TomlError } from 'smol-toml'

/**
 * The settings a config file may hold: every environment setting of `pinfold serve`, named in the
 * file in lower case without the `PINFOLD_` prefix, a table standing for its prefix (`[s3] bucket`
 * is `PINFOLD_S3_BUCKET`). The environment wins over the file, so a container can override one key.
 */
export const SERVER_SETTINGS = [
  'PORT',
  'HOST',
  'DATABASE_URL',
  'PINFOLD_DATABASE_PREPARED_STATEMENTS',
  'PINFOLD_DATA_DIR',
  'PINFOLD_STORAGE',
  'PINFOLD_WORKERS',
  'PINFOLD_LOG_LEVEL',
  'PINFOLD_PUBLIC_URL',
  'PINFOLD_AUTH_SECRET',
  'PINFOLD_JWKS_URL',
  'PINFOLD_JWT_AUDIENCE',
  'PINFOLD_JWT_ISSUER',
  'PINFOLD_JWT_MAX_LIFETIME_SECONDS',
  'PINFOLD_MAX_UPLOAD_BYTES',
  'PINFOLD_UPLOAD_HASHING',
  'PINFOLD_BODY_IDLE_TIMEOUT_MS',
  'PINFOLD_SHUTDOWN_TIMEOUT_MS',
  'PINFOLD_TRUST_PROXY',
  'PINFOLD_RATE_LIMIT_PER_IP',
  'PINFOLD_RATE_LIMIT_PER_TOKEN',
  'PINFOLD_GATEWAY_DOMAIN',
  'PINFOLD_SUBDOMAIN_GATEWAY_HOST',
  'PINFOLD_S3_BUCKET',
  'PINFOLD_S3_ENDPOINT',
  'PINFOLD_S3_REGION',
  'PINFOLD_S3_PREFIX',
  'PINFOLD_S3_FORCE_PATH_STYLE',
  'PINFOLD_IMAGES',
  'PINFOLD_IMAGE_CACHE_BYTES',
  'PINFOLD_IMAGE_CONCURRENCY',
  'PINFOLD_IMAGE_MAX_DIMENSION',
  'PINFOLD_IMAGE_MAX_INPUT_BYTES',
  'PINFOLD_IMAGE_MAX_INPUT_PIXELS',
  'PINFOLD_IMAGE_MAX_OUTPUT_BYTES',
  'PINFOLD_IMAGE_MAX_QUEUE',
  'PINFOLD_IMAGE_TENANT_JOBS',
  'PINFOLD_IMAGE_TENANT_QUEUE',
  'PINFOLD_IMAGE_TIMEOUT_SECONDS',
  'PINFOLD_IPFS_ANNOUNCE',
  'PINFOLD_IPFS_BOOTSTRAP',
  'PINFOLD_IPFS_DHT',
  'PINFOLD_IPFS_GATEWAYS',
  'PINFOLD_IPFS_LISTEN',
  'PINFOLD_IPFS_PEER_KEY',
  'PINFOLD_IPFS_PRIVATE_ADDRESSES',
  'PINFOLD_IPFS_PROVIDE_CONCURRENCY',
  'PINFOLD_IPFS_REPROVIDE_INTERVAL_MS',
  'PINFOLD_METRICS_LISTEN',
  'PINFOLD_METRICS_TOKEN',
  'PINFOLD_METRICS_TOTALS_MAX_AGE_MS',
  'PINFOLD_GATEWAY_CACHE_MB',
  'PINFOLD_GATEWAY_CACHE_TTL_MS',
  'PINFOLD_GATEWAY_ANSWER_CACHE_MB',
  'PINFOLD_DENYLISTS',
  'PINFOLD_DENYLIST_FILE_CHECK_MS',
  'PINFOLD_DENYLIST_REFRESH_MS',
  'PINFOLD_DENYLIST_PRIVATE_READS',
  'PINFOLD_DENYLIST_SCAN_PAUSE_MS',
  'PINFOLD_QUOTA_STORAGE_BYTES',
  'PINFOLD_QUOTA_FILES',
  'PINFOLD_QUOTA_FILE_BYTES',
  'PINFOLD_QUOTA_PIN_REQUESTS',
  'PINFOLD_QUOTA_REQUESTS_PER_MINUTE',
  'PINFOLD_QUOTA_VECTORIZED_FILES',
  'PINFOLD_OTLP_ENDPOINT',
  'PINFOLD_PIN_BLOCK_TIMEOUT_MS',
  'PINFOLD_PIN_CONCURRENCY',
  'PINFOLD_PIN_JOBS',
  'PINFOLD_PIN_LEASE_MS',
  'PINFOLD_PIN_MAX_BLOCKS',
  'PINFOLD_PIN_MAX_BYTES',
  'PINFOLD_PIN_POLL_MS',
  'PINFOLD_PIN_TENANT_JOBS',
  'PINFOLD_PIN_TENANT_QUEUE',
  'PINFOLD_PIN_TIMEOUT_MS',
  'PINFOLD_EXPIRY_SWEEP_MS',
  'PINFOLD_ORPHAN_SWEEP_MS',
  'PINFOLD_USAGE_FLUSH_MS',
  'PINFOLD_AUDIT_RETENTION_DAYS',
  'PINFOLD_USAGE_MAX_ROWS_PER_DAY',
  'PINFOLD_UPLOAD_COMPLETION_LEASE_MS',
  'PINFOLD_EMBEDDINGS_URL',
  'PINFOLD_EMBEDDINGS_MODEL',
  'PINFOLD_EMBEDDINGS_API_KEY',
  'PINFOLD_EMBEDDINGS_DIMENSIONS',
  'PINFOLD_VECTOR_EF_SEARCH',
  'PINFOLD_VECTOR_EXACT_MAX',
  'PINFOLD_VECTOR_HNSW_EF_CONSTRUCTION',
  'PINFOLD_VECTOR_HNSW_M',
  'PINFOLD_VECTOR_MAX_SCAN_TUPLES',
  'PINFOLD_X402_FACILITATOR_TIMEOUT_MS',
  'PINFOLD_X402_FACILITATOR_URL',
  'PINFOLD_X402_NETWORK',
  'PINFOLD_X402_PAY_TO',
  'PINFOLD_WEBHOOK_ALLOW_PRIVATE',
  'PINFOLD_WEBHOOK_POLL_MS',
  'PINFOLD_WEBHOOK_JOBS',
  'PINFOLD_WEBHOOK_TIMEOUT_MS',
  'PINFOLD_WEBHOOK_MAX_RESPONSE_BYTES',
  'PINFOLD_WEBHOOK_MAX_ATTEMPTS',
  'PINFOLD_WEBHOOK_RETRY_BASE_MS',
  'PINFOLD_WEBHOOK_RETRY_MAX_MS',
  'PINFOLD_WEBHOOK_LEASE_MS',
  'PINFOLD_WEBHOOK_TENANT_JOBS',
  'PINFOLD_WEBHOOK_ENDPOINT_JOBS',
  'PINFOLD_WEBHOOK_MAX_ENDPOINTS',
  'PINFOLD_WEBHOOK_RETENTION_MS',
  'PINFOLD_WEBHOOK_DISABLE_AFTER_MS',
  'PINFOLD_WEBHOOK_SECRET_GRACE_MS',
] as const

/** Settings named without the `PINFOLD_` prefix in the environment (as most servers name them). */
const UNPREFIXED = new Set(['PORT', 'HOST', 'DATABASE_URL'])

/** `data_dir` → `PINFOLD_DATA_DIR`, `s3.bucket` → `PINFOLD_S3_BUCKET`, `port` → `PORT`. */
export function settingOf(keyPath: readonly string[]): string {
  const name = keyPath.join('_').replaceAll('-', '_').toUpperCase()
  return UNPREFIXED.has(name) ? name : `PINFOLD_${name}`
}

/** A config file's settings, and which key of it set each (for error messages). */
export interface ConfigFileSettings {
  env: Record<string, string>
  /** Environment name → `key in file`, for the settings the file gave. */
  origin: Record<string, string>
}

/**
 * Reads a TOML config file into environment settings, refusing anything that is not one: a syntax
 * error (with its line), an unknown key (a typo would otherwise be silently ignored), a value that
 * is not a string, a number, a boolean or a list of strings (lists are joined with commas, as the
 * list settings are written in the environment).
 */
export async function readServerConfigFile(path: string): Promise<ConfigFileSettings> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    throw configError(`cannot read the config file ${path}: ${(error as NodeJS.ErrnoException).code ?? error}`)
  }
  return parseServerConfig(text, path)
}

export function parseServerConfig(text: string, path: string): ConfigFileSettings {
  let document: Record<string, unknown>
  try {
    document = parse(text)
  } catch (error) {
    const where = error instanceof TomlError ? ` at line ${error.line}, column ${error.column}` : ''
    const first = (error as Error).message.split('\n')[0]
    throw configError(`the config file ${path} is not valid TOML${where}: ${first}`)
  }
  const settings: ConfigFileSettings = { env: {}, origin: {} }
  const known = new Set<string>(SERVER_SETTINGS)
  const visit = (table: Record<string, unknown>, prefix: string[]) => {
    for (const [key, value] of Object.entries(table)) {
      const keyPath = [...prefix, key]
      const shown = keyPath.join('.')
      if (isTable(value)) {
        visit(value, keyPath)
        continue
      }
      const name = settingOf(keyPath)
      if (!known.has(name)) {
        throw configError(
          `unknown key "${shown}" in ${path}: the keys are the settings of docs/configuration.md, ` +
            'in lower case without PINFOLD_ (data_dir, log_level, [s3] bucket, …)',
        )
      }
      settings.env[name] = settingValue(value, shown, path)
      settings.origin[name] = `"${shown}" in ${path}`
    }
  }
  visit(document, [])
  return settings
}

function isTable(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date)
}

function settingValue(value: unknown, key: string, path: string): string {
  if (typeof value === 'string') return value
  if (typeof value === 'boolean') return String(value)
  if (typeof value === 'number' || typeof value === 'bigint') return String(value)
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value.join(',')
  throw configError(`"${key}" in ${path} must be a string, a number, a boolean or a list of strings`)
}

function configError(message: string): PinfoldError {
  return new PinfoldError('INVALID_INPUT', message)
}

/**
 * The environment `pinfold serve` reads its settings from: the config file's under the process's
 * own, so any variable overrides the file.
 */
export function withConfigFile(file: ConfigFileSettings, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const merged: NodeJS.ProcessEnv = { ...file.env }
  for (const [name, value] of Object.entries(env)) if (value !== undefined && value !== '') merged[name] = value
  return merged
}
