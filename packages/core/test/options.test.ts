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
  optionChecks,
  type PaymentNetwork,
  type PaymentVerifier,
  type RecordStore,
  type TextExtractor,
  type TxtResolver,
} from '../src/index.js'

const check = optionChecks('@pinfold/demo', 'createDemo')

/** `[what, call, expected message]`: each checker's refusal, worded the same way. */
const REFUSALS: [string, () => unknown, string][] = [
  ['positiveInteger 0', () => check.positiveInteger('n', 0), 'option `n` must be a positive integer, got 0'],
  ['positiveInteger 1.5', () => check.positiveInteger('n', 1.5), 'must be a positive integer, got 1.5'],
  ['positiveInteger "3"', () => check.positiveInteger('n', '3'), 'must be a positive integer, got "3"'],
  ['nonNegativeInteger -1', () => check.nonNegativeInteger('n', -1), 'must be a non-negative integer, got -1'],
  ['nonNegativeNumber NaN', () => check.nonNegativeNumber('n', Number.NaN), 'must be a non-negative number, got NaN'],
  ['integerBetween 11', () => check.integerBetween('n', 11, 1, 10), 'must be an integer from 1 to 10, got 11'],
  ['nonEmptyString " "', () => check.nonEmptyString('s', ' '), 'option `s` must be a non-empty string, got " "'],
  ['httpUrl relative', () => check.httpUrl('u', 'example.com'), 'must be an absolute http(s) URL, got "example.com"'],
  ['httpUrl ftp', () => check.optionalHttpUrl('u', 'ftp://example.com'), 'must be an absolute http(s) URL'],
  ['optionalHostname URL', () => check.optionalHostname('h', 'http://gw.example'), 'must be a host name'],
  ['optionalFunction object', () => check.optionalFunction('f', {} as never), 'must be a function, got an object'],
  ['secret short', () => check.secret('key', 'short', 32), 'option `key` must be a string or bytes of at least 32'],
  ['require false', () => check.require('x', false, 'is required'), 'option `x` is required'],
]

describe('optionChecks', () => {
  it.each(REFUSALS)('optionChecks - %s is INVALID_INPUT naming package, factory and option', (_, call, message) => {
    expect(call).toThrow(
      expect.objectContaining({
        code: 'INVALID_INPUT',
        message: expect.stringContaining('@pinfold/demo createDemo: '),
      }),
    )
    expect(call).toThrow(message)
  })

  it('optionChecks - a valid value comes back; an unset optional one is undefined', () => {
    expect(check.positiveInteger('n', 3)).toBe(3)
    expect(check.httpUrl('u', 'https://files.example.com/p').pathname).toBe('/p')
    expect(check.optionalHttpUrl('u', undefined)).toBeUndefined()
    expect(check.optionalHostname('h', 'GW.example.com')).toBe('GW.example.com')
  })

  it('optionChecks - a secret is never echoed; environment variables are called variables', () => {
    expect(() => check.secret('key', 'hunter2', 32)).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('hunter2') }),
    )
    expect(() => optionChecks('@pinfold/demo', 'readDemo', 'variable').positiveInteger('PORT', -1)).toThrow(
      '@pinfold/demo readDemo: variable `PORT` must be a positive integer, got -1',
    )
  })
})

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
