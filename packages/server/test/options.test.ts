import { createNodeHandler } from '@pinfold/http-node'
import { invalidOption } from '@pinfold/testing/option-errors'
import { describe, expect, it } from 'vitest'
import { readConfig } from '../src/index.js'

// createFetchHandler's options are checked in packages/http/test/options.test.ts.

/** The package each factory belongs to, which its messages name. */
const PACKAGE_OF: Record<string, string> = {
  createNodeHandler: '@pinfold/http-node',
  readConfig: '@pinfold/server',
  paymentOptionsFromEnv: '@pinfold/server',
}

const named = (factory: string, noun: string, option: string) =>
  invalidOption(PACKAGE_OF[factory]!, factory, noun, option)

/** `[variable, env, function that reads it]`. */
const BAD_ENV: [string, NodeJS.ProcessEnv, string][] = [
  ['PINFOLD_STORAGE', { PINFOLD_STORAGE: 'disk' }, 'readConfig'],
  ['PORT', { PORT: '-1' }, 'readConfig'],
  ['PINFOLD_MAX_UPLOAD_BYTES', { PINFOLD_MAX_UPLOAD_BYTES: 'lots' }, 'readConfig'],
  ['PINFOLD_UPLOAD_HASHING', { PINFOLD_UPLOAD_HASHING: 'threads' }, 'readConfig'],
  ['PINFOLD_RATE_LIMIT_PER_IP', { PINFOLD_RATE_LIMIT_PER_IP: '1.5' }, 'readConfig'],
  ['PINFOLD_TRUST_PROXY', { PINFOLD_TRUST_PROXY: 'yes' }, 'readConfig'],
  [
    'PINFOLD_IPFS_GATEWAYS',
    { PINFOLD_IPFS_GATEWAYS: 'https://trustless-gateway.link,ftp://files.example' },
    'readConfig',
  ],
  ['PINFOLD_IPFS_GATEWAYS', { PINFOLD_IPFS_GATEWAYS: 'trustless-gateway.link' }, 'readConfig'],
  ['PINFOLD_PIN_TIMEOUT_MS', { PINFOLD_PIN_TIMEOUT_MS: 'soon' }, 'readConfig'],
  ['PINFOLD_PIN_JOBS', { PINFOLD_PIN_JOBS: '-1' }, 'readConfig'],
  ['PINFOLD_PIN_TENANT_QUEUE', { PINFOLD_PIN_TENANT_QUEUE: '0' }, 'readConfig'],
  ['PINFOLD_PIN_TENANT_JOBS', { PINFOLD_PIN_TENANT_JOBS: 'all' }, 'readConfig'],
  ['PINFOLD_PIN_BLOCK_TIMEOUT_MS', { PINFOLD_PIN_BLOCK_TIMEOUT_MS: '0' }, 'readConfig'],
  ['PINFOLD_VECTOR_EF_SEARCH', { PINFOLD_VECTOR_EF_SEARCH: 'high' }, 'readConfig'],
  ['PINFOLD_GATEWAY_DOMAIN', { PINFOLD_GATEWAY_DOMAIN: 'https://gw.example.com' }, 'readConfig'],
  ['PINFOLD_DENYLISTS', { PINFOLD_DENYLISTS: '/a/x.deny,/b/x.deny' }, 'readConfig'],
  ['PINFOLD_DENYLIST_REFRESH_MS', { PINFOLD_DENYLIST_REFRESH_MS: '0' }, 'readConfig'],
  ['PINFOLD_DENYLIST_PRIVATE_READS', { PINFOLD_DENYLIST_PRIVATE_READS: 'no' }, 'readConfig'],
  ['PINFOLD_WEBHOOK_ALLOW_PRIVATE', { PINFOLD_WEBHOOK_ALLOW_PRIVATE: 'yes' }, 'readConfig'],
  ['PINFOLD_WEBHOOK_TIMEOUT_MS', { PINFOLD_WEBHOOK_TIMEOUT_MS: '0' }, 'readConfig'],
  ['PINFOLD_WEBHOOK_JOBS', { PINFOLD_WEBHOOK_JOBS: '-1' }, 'readConfig'],
  ['PINFOLD_WEBHOOK_ENDPOINT_JOBS', { PINFOLD_WEBHOOK_ENDPOINT_JOBS: 'all' }, 'readConfig'],
  ['PINFOLD_IMAGES', { PINFOLD_IMAGES: 'yes' }, 'readConfig'],
  ['PINFOLD_IMAGE_MAX_INPUT_PIXELS', { PINFOLD_IMAGE_MAX_INPUT_PIXELS: '0' }, 'readConfig'],
  ['PINFOLD_IMAGE_CONCURRENCY', { PINFOLD_IMAGE_CONCURRENCY: 'two' }, 'readConfig'],
  ['PINFOLD_IMAGE_CACHE_BYTES', { PINFOLD_IMAGE_CACHE_BYTES: '-1' }, 'readConfig'],
  ['PINFOLD_IMAGE_TENANT_QUEUE', { PINFOLD_IMAGE_TENANT_QUEUE: '0' }, 'readConfig'],
  ['PINFOLD_X402_PAY_TO', { PINFOLD_X402_PAY_TO: '0x12' }, 'paymentOptionsFromEnv'],
  ['PINFOLD_X402_NETWORK', { PINFOLD_X402_NETWORK: 'mainnet-ish' }, 'paymentOptionsFromEnv'],
  [
    'PINFOLD_X402_FACILITATOR_TIMEOUT_MS',
    { PINFOLD_X402_FACILITATOR_URL: 'https://x402.org/facilitator', PINFOLD_X402_FACILITATOR_TIMEOUT_MS: '0' },
    'paymentOptionsFromEnv',
  ],
]

describe('http-node options', () => {
  it('readConfig - image settings: defaults unset, each PINFOLD_IMAGE_* read, PINFOLD_IMAGES=off turns them off', () => {
    expect(readConfig({}).images).toEqual({})
    expect(readConfig({}).gatewayDomain).toBeUndefined()
    const config = readConfig({
      PINFOLD_GATEWAY_DOMAIN: 'GW.Example.com',
      PINFOLD_IMAGE_MAX_INPUT_PIXELS: '1000000',
      PINFOLD_IMAGE_CACHE_BYTES: '0',
      PINFOLD_IMAGE_CONCURRENCY: '3',
      PINFOLD_IMAGE_TENANT_QUEUE: '5',
      PINFOLD_IMAGE_TENANT_JOBS: '2',
    })
    expect(config.gatewayDomain).toBe('GW.Example.com')
    expect(config.images).toEqual({
      maxInputPixels: 1_000_000,
      cacheBytes: 0,
      concurrency: 3,
      maxPerTenant: 5,
      maxRunningPerTenant: 2,
    })
    expect(readConfig({ PINFOLD_IMAGES: 'off', PINFOLD_IMAGE_CONCURRENCY: '3' }).images).toBeUndefined()
  })

  it.each([
    ['handler', () => createNodeHandler(undefined as never)],
    ['bodyIdleTimeoutMs', () => createNodeHandler(async () => new Response(), { bodyIdleTimeoutMs: -1 })],
    ['trustProxy', () => createNodeHandler(async () => new Response(), { trustProxy: 1.5 })],
  ])('createNodeHandler - a bad `%s` is INVALID_INPUT at construction', (option, build) => {
    expect(build).toThrow(named('createNodeHandler', 'option', option))
  })

  it('readConfig - PINFOLD_IPFS_GATEWAYS is a comma-separated list of URLs; unset, none', () => {
    const { pinning } = readConfig({
      PINFOLD_IPFS_GATEWAYS: ' https://trustless-gateway.link , http://127.0.0.1:8080,',
    })
    expect(pinning.gateways).toEqual(['https://trustless-gateway.link/', 'http://127.0.0.1:8080/'])
    expect(readConfig({}).pinning).toEqual({
      gateways: [],
      maxBytes: undefined,
      maxBlocks: 1_000_000,
      jobTimeoutMs: 1_800_000,
      blockTimeoutMs: 20_000,
      maxQueuedPerTenant: 100,
      maxRunningPerTenant: 1,
      concurrency: 8,
      pollIntervalMs: 2000,
      jobs: 2,
      leaseMs: 60_000,
    })
    // a tenant runs one job fewer than the instance's workers, unless told otherwise
    expect(readConfig({ PINFOLD_PIN_JOBS: '6' }).pinning.maxRunningPerTenant).toBe(5)
    expect(readConfig({ PINFOLD_PIN_JOBS: '6', PINFOLD_PIN_TENANT_JOBS: '6' }).pinning.maxRunningPerTenant).toBe(6)
  })

  it('readConfig - PINFOLD_WEBHOOK_* defaults: public addresses only, one endpoint slot, a tenant one loop short of all', () => {
    expect(readConfig({}).webhooks).toEqual({
      allowPrivate: false,
      pollIntervalMs: 1_000,
      jobs: 4,
      timeoutMs: 10_000,
      maxResponseBytes: 65_536,
      maxAttempts: 10,
      retryBaseMs: 30_000,
      retryMaxMs: 21_600_000,
      leaseMs: 60_000,
      maxRunningPerTenant: 3,
      maxRunningPerEndpoint: 1,
      maxEndpoints: 20,
      retentionMs: 2_592_000_000,
      disableAfterMs: 432_000_000,
      secretGraceMs: 86_400_000,
    })
    expect(readConfig({ PINFOLD_WEBHOOK_JOBS: '1' }).webhooks.maxRunningPerTenant).toBe(1)
    expect(readConfig({ PINFOLD_WEBHOOK_ALLOW_PRIVATE: 'true' }).webhooks.allowPrivate).toBe(true)
  })

  it('readConfig - PINFOLD_UPLOAD_HASHING is main-thread, thread-pool or auto; unset, auto', () => {
    expect(readConfig({}).uploadHashing).toBe('auto')
    expect(readConfig({ PINFOLD_UPLOAD_HASHING: 'thread-pool' }).uploadHashing).toBe('thread-pool')
    expect(readConfig({ PINFOLD_UPLOAD_HASHING: 'main-thread' }).uploadHashing).toBe('main-thread')
  })

  it('readConfig - PINFOLD_VECTOR_* reach the record store options; unset, the adapter defaults', () => {
    expect(
      readConfig({
        PINFOLD_VECTOR_EF_SEARCH: '200',
        PINFOLD_VECTOR_EXACT_MAX: '5000',
        PINFOLD_VECTOR_HNSW_M: '24',
        PINFOLD_VECTOR_HNSW_EF_CONSTRUCTION: '128',
        PINFOLD_VECTOR_MAX_SCAN_TUPLES: '40000',
      }).vectors,
    ).toEqual({ efSearch: 200, exactSearchMaxVectors: 5000, hnswM: 24, hnswEfConstruction: 128, maxScanTuples: 40000 })
    expect(Object.values(readConfig({}).vectors)).toEqual([undefined, undefined, undefined, undefined, undefined])
  })

  it.each(BAD_ENV)('readConfig - a bad `%s` is INVALID_INPUT at start-up', (variable, env, reader) => {
    expect(() => readConfig(env)).toThrow(named(reader, 'variable', variable))
  })
})
