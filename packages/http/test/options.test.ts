import { createMemoryBlobStore, createMemoryRecordStore } from '@pinfold/adapter-memory'
import { createFileService, createTokenVerifier } from '@pinfold/core'
import { createFetchHandler, type FetchHandlerOptions } from '@pinfold/http'
import { createNodeHandler } from '@pinfold/http-node'
import { describe, expect, it } from 'vitest'
import { readConfig } from '../src/index.js'
import { TEST_SECRET } from './support/server.js'

const service = createFileService({ records: createMemoryRecordStore(), blobs: createMemoryBlobStore() })
const auth = createTokenVerifier({ secret: TEST_SECRET })

/** The package each factory belongs to, which its messages name. */
const PACKAGE_OF: Record<string, string> = {
  createFetchHandler: '@pinfold/http',
  createNodeHandler: '@pinfold/http-node',
  readConfig: '@pinfold/server',
  paymentOptionsFromEnv: '@pinfold/server',
}

const named = (factory: string, noun: string, option: string) =>
  expect.objectContaining({
    code: 'INVALID_INPUT',
    message: expect.stringContaining(`${PACKAGE_OF[factory]} ${factory}: ${noun} \`${option}\``),
  })

const BAD_HANDLER: [string, Partial<FetchHandlerOptions>][] = [
  ['auth', { auth: undefined as unknown as FetchHandlerOptions['auth'] }],
  ['auth', { auth: {} as FetchHandlerOptions['auth'] }],
  ['publicUrl', { publicUrl: 'files.example.com' }],
  ['publicUrl', { publicUrl: 'ftp://files.example.com' }],
  ['publicUrl', { publicUrl: 'https://files.example.com/?tenant=acme' }],
  ['publicUrl', { publicUrl: '' }],
  ['subdomainHost', { subdomainHost: 'https://gw.example.com' }],
  ['subdomainHost', { subdomainHost: 'gw.example.com/ipfs' }],
  ['basePath', { basePath: '/pinfold?x=1' }],
  ['onError', { onError: 'log' as unknown as FetchHandlerOptions['onError'] }],
  ['clientIp', { clientIp: 1 as unknown as FetchHandlerOptions['clientIp'] }],
  ['rateLimit.perIp.limit', { rateLimit: { perIp: { limit: 0, windowMs: 1000 } } }],
  ['rateLimit.perToken.windowMs', { rateLimit: { perToken: { limit: 5, windowMs: 0 } } }],
]

/** `[variable, env, function that reads it]`. */
const BAD_ENV: [string, NodeJS.ProcessEnv, string][] = [
  ['PINFOLD_STORAGE', { PINFOLD_STORAGE: 'disk' }, 'readConfig'],
  ['PORT', { PORT: '-1' }, 'readConfig'],
  ['PINFOLD_MAX_UPLOAD_BYTES', { PINFOLD_MAX_UPLOAD_BYTES: 'lots' }, 'readConfig'],
  ['PINFOLD_RATE_LIMIT_PER_IP', { PINFOLD_RATE_LIMIT_PER_IP: '1.5' }, 'readConfig'],
  ['PINFOLD_X402_PAY_TO', { PINFOLD_X402_PAY_TO: '0x12' }, 'paymentOptionsFromEnv'],
  ['PINFOLD_X402_NETWORK', { PINFOLD_X402_NETWORK: 'mainnet-ish' }, 'paymentOptionsFromEnv'],
  [
    'PINFOLD_X402_FACILITATOR_TIMEOUT_MS',
    { PINFOLD_X402_FACILITATOR_URL: 'https://x402.org/facilitator', PINFOLD_X402_FACILITATOR_TIMEOUT_MS: '0' },
    'paymentOptionsFromEnv',
  ],
]

describe('http-node options', () => {
  it.each(BAD_HANDLER)('createFetchHandler - a bad `%s` is INVALID_INPUT at construction', (option, bad) => {
    expect(() => createFetchHandler(service, { auth, ...bad })).toThrow(named('createFetchHandler', 'option', option))
  })

  it.each([
    ['handler', () => createNodeHandler(undefined as never)],
    ['bodyIdleTimeoutMs', () => createNodeHandler(async () => new Response(), { bodyIdleTimeoutMs: -1 })],
  ])('createNodeHandler - a bad `%s` is INVALID_INPUT at construction', (option, build) => {
    expect(build).toThrow(named('createNodeHandler', 'option', option))
  })

  it.each(BAD_ENV)('readConfig - a bad `%s` is INVALID_INPUT at start-up', (variable, env, reader) => {
    expect(() => readConfig(env)).toThrow(named(reader, 'variable', variable))
  })
})

describe('createFetchHandler publicUrl', () => {
  const health = (handler: (request: Request) => Promise<Response>) =>
    handler(new Request('http://127.0.0.1:1/healthz'))

  it('publicUrl - a value without a scheme fails at construction, never as a 500 per request', () => {
    expect(() => createFetchHandler(service, { auth, publicUrl: 'files.example.com' })).toThrow(
      named('createFetchHandler', 'option', 'publicUrl'),
    )
  })

  it('publicUrl - a getter is checked each time it gives a new value; a later bad one is a 500 reported to onError', async () => {
    let publicUrl: string | undefined
    const errors: unknown[] = []
    const handler = createFetchHandler(service, {
      auth,
      get publicUrl() {
        return publicUrl
      },
      onError: (error) => errors.push(error),
    })
    expect((await health(handler)).status).toBe(200)
    publicUrl = 'http://127.0.0.1:8080/'
    expect((await health(handler)).status).toBe(200)
    publicUrl = 'localhost:8080'
    expect((await health(handler)).status).toBe(500)
    expect(errors).toEqual([
      expect.objectContaining({
        code: 'INTERNAL',
        message: expect.stringContaining('@pinfold/http createFetchHandler: option `publicUrl`'),
      }),
    ])
  })
})
