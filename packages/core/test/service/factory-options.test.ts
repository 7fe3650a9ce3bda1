import { describe, expect, it } from 'vitest'
import {
  type BlobStore,
  type Clock,
  createFileService,
  createTokenVerifier,
  type Embedder,
  type FileServiceOptions,
  type GatewayPlugin,
  type IdSource,
  type PaymentNetwork,
  type PaymentVerifier,
  type RecordStore,
  type TextExtractor,
  type TxtResolver,
  type WebhookTransport,
} from '../../src/index.js'

const records = {} as RecordStore
const blobs = {} as BlobStore
const NETWORK: PaymentNetwork = {
  v1Name: 'base-sepolia',
  caip2: 'eip155:84532',
  chainId: 84532,
  usdc: { address: '0x036CbD53842c5426634e7929541eC2318f3dCF7e', name: 'USDC', version: '2', decimals: 6 },
}

/** `[option, options]`: one bad option each. */
const BAD_SERVICE_OPTIONS: [string, Partial<FileServiceOptions>][] = [
  ['records', { records: undefined }],
  ['blobs', { blobs: undefined }],
  ['maxUploadBytes', { maxUploadBytes: -1 }],
  ['maxUploadBytes', { maxUploadBytes: 1.5 }],
  ['uploadHashing', { uploadHashing: 'worker-threads' as FileServiceOptions['uploadHashing'] }],
  ['signingSecret', { signingSecret: 'too-short' }],
  ['signingSecret', { signingSecret: new Uint8Array(31) }],
  ['paymentSettings', { paymentSettings: { networks: [] } as unknown as FileServiceOptions['paymentSettings'] }],
  ['paymentSettings.defaultNetwork', { paymentSettings: { networks: [NETWORK], defaultNetwork: 'base' } }],
  ['paymentSettings.defaultPayTo', { paymentSettings: { networks: [NETWORK], defaultPayTo: '0x12' } }],
  ['paymentSettings.defaultAmount', { paymentSettings: { networks: [NETWORK], defaultAmount: '0.5' } }],
  ['paymentSettings.linkSeconds', { paymentSettings: { networks: [NETWORK], linkSeconds: 0 } }],
  ['paymentSettings.maxTimeoutSeconds', { paymentSettings: { networks: [NETWORK], maxTimeoutSeconds: 1.5 } }],
  ['payments', { payments: {} as PaymentVerifier }],
  ['clock', { clock: { now: new Date() } as unknown as Clock }],
  ['ids', { ids: { recordId: () => 'id' } as unknown as IdSource }],
  ['embedder', { embedder: { id: 'e', dimensions: 2 } as unknown as Embedder }],
  ['embedder.id', { embedder: { id: '', dimensions: 2, embed: async () => [] } }],
  ['embedder.dimensions', { embedder: { id: 'e', dimensions: 0, embed: async () => [] } }],
  ['textExtractor', { textExtractor: 'pdf' as unknown as TextExtractor }],
  ['resolveTxt', { resolveTxt: {} as unknown as TxtResolver }],
  ['gatewayPlugins', { gatewayPlugins: 'all' as unknown as GatewayPlugin[] }],
  ['resumableUploads.completionLeaseMs', { resumableUploads: { completionLeaseMs: 299 } }],
  ['resumableUploads.completionLeaseMs', { resumableUploads: { completionLeaseMs: 1.5 } }],
  [
    'webhookTransport',
    { webhookTransport: { check: async () => ({ kind: 'allowed' }) } as unknown as WebhookTransport },
  ],
  ['denylistHolderPageSize', { denylistHolderPageSize: 0 }],
  ['webhooks.timeoutMs', { webhooks: { timeoutMs: 50 } }],
  ['webhooks.leaseMs', { webhooks: { timeoutMs: 10_000, leaseMs: 10_000 } }],
  ['webhooks.maxAttempts', { webhooks: { maxAttempts: 0 } }],
  ['webhooks.backoff.baseMs', { webhooks: { backoff: { baseMs: 1.5, maxMs: 10 } } }],
  ['webhooks.maxRunningPerEndpoint', { webhooks: { maxRunningPerEndpoint: 0 } }],
  ['webhooks.fanOutBatch', { webhooks: { fanOutBatch: 100_000 } }],
  ['resumableUploads.checkpoint', { resumableUploads: { checkpoint: 'claimed' as unknown as () => Promise<void> } }],
  ['gatewayPlugins', { gatewayPlugins: [{ id: 1, name: 'p', description: '', image: 'icon.png', tags: [] }] }],
]

describe('createFileService options', () => {
  it.each(BAD_SERVICE_OPTIONS)('createFileService - a bad `%s` is INVALID_INPUT at construction', (option, bad) => {
    expect(() => createFileService({ records, blobs, ...bad } as FileServiceOptions)).toThrow(
      expect.objectContaining({
        code: 'INVALID_INPUT',
        message: expect.stringContaining(`@pinfold/core createFileService: option \`${option}\``),
      }),
    )
  })
})

describe('createTokenVerifier options', () => {
  it.each([
    ['secret', { secret: 'short' }],
    ['keys', {} as { keys: never }],
    ['maxLifetimeSeconds', { secret: 'a-token-secret-that-is-long-enough-0123', maxLifetimeSeconds: 0 }],
  ] as const)('createTokenVerifier - a bad `%s` is INVALID_INPUT at construction', (option, bad) => {
    expect(() => createTokenVerifier(bad)).toThrow(
      expect.objectContaining({
        code: 'INVALID_INPUT',
        message: expect.stringContaining(`@pinfold/core createTokenVerifier: option \`${option}\``),
      }),
    )
  })
})
