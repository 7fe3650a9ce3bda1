import { createMemoryBlobStore, createMemoryRecordStore } from '@pinfold/adapter-memory'
import { createFileService, createTokenVerifier, type FileService, type ImageTransformer } from '@pinfold/core'
import { createSharpTransformer } from '@pinfold/image-sharp'
import { invalidOption } from '@pinfold/testing/option-errors'
import { TEST_SECRET } from '@pinfold/testing/test-api'
import { describe, expect, it } from 'vitest'
import { createFetchHandler, type FetchHandlerOptions, jsonLinesLogger, type RequestLogger } from '../src/index.js'

const service = createFileService({ records: createMemoryRecordStore(), blobs: createMemoryBlobStore() })
const auth = createTokenVerifier({ secret: TEST_SECRET })

const named = (noun: string, option: string) => invalidOption('@pinfold/http', 'createFetchHandler', noun, option)

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
  // one origin as a string would be matched as a substring of every request's Origin
  ['cors.origins', { cors: { origins: 'https://app.example.com' as unknown as readonly string[] } }],
  ['cors.origins', { cors: { origins: ['https://app.example.com/'] } }],
  ['logger', { logger: console.log as unknown as RequestLogger }],
  ['images.transformer', { images: { transformer: {} as ImageTransformer } }],
  ['images.transformer', { images: null as unknown as FetchHandlerOptions['images'] }],
  ['images.cacheBytes', { images: { transformer: createSharpTransformer(), cacheBytes: -1 } }],
]

describe('createFetchHandler options', () => {
  it.each(BAD_HANDLER)('createFetchHandler - a bad `%s` is INVALID_INPUT at construction', (option, bad) => {
    expect(() => createFetchHandler(service, { auth, ...bad })).toThrow(named('option', option))
  })

  it('createFetchHandler - something else than a FileService is INVALID_INPUT at construction, not a 500 per request', () => {
    for (const notAService of [undefined, {}, { files: {} }]) {
      expect(() => createFetchHandler(notAService as unknown as FileService, { auth })).toThrow(
        named('option', 'service'),
      )
    }
  })

  it('createFetchHandler - good cors origins and a logger are accepted', () => {
    const logger = jsonLinesLogger(() => {})
    expect(() =>
      createFetchHandler(service, { auth, logger, cors: { origins: ['http://localhost:3000'] } }),
    ).not.toThrow()
    expect(() => createFetchHandler(service, { auth, cors: { origins: false } })).not.toThrow()
  })
})

describe('createFetchHandler publicUrl', () => {
  const health = (handler: (request: Request) => Promise<Response>) =>
    handler(new Request('http://127.0.0.1:1/healthz'))

  it('publicUrl - a value without a scheme fails at construction, never as a 500 per request', () => {
    expect(() => createFetchHandler(service, { auth, publicUrl: 'files.example.com' })).toThrow(
      named('option', 'publicUrl'),
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
