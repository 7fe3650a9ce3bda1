import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { SCOPES } from '@pinfold/core'
import { PAY_TO } from '@pinfold/testing/payments'
import { startFakeEmbeddings } from '@pinfold/testing/reliability'
import { form } from '@pinfold/testing/test-api'
import { exportJWK, generateKeyPair, SignJWT } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { requestWithHost } from './support/raw-http.js'
import { startTestServer, type TestServer } from './support/server.js'

/**
 * `pinfold serve`'s settings, read from the environment, reach the handler and the service. The
 * behaviour behind each setting is tested in process in packages/http/test, where the tests pass
 * the handler and service options directly.
 */

describe('bearer tokens - PINFOLD_JWT_MAX_LIFETIME_SECONDS', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ PINFOLD_JWT_MAX_LIFETIME_SECONDS: '3600' })
  })
  afterAll(() => server.close())

  it('auth - a token expiring within the maximum is accepted, one expiring later is 401', async () => {
    const withinHour = await server.token({ expiresIn: 3000 })
    expect((await server.api('/v3/groups/public', { auth: withinHour })).status).toBe(200)
    const res = await server.api('/v3/groups/public', { auth: await server.token({ expiresIn: 2 * 3600 }) })
    expect(res.status).toBe(401)
    expect(await res.json()).toEqual({ error: 'token expires more than 3600 s from now' })
  })
})

describe('behind a reverse proxy - PINFOLD_TRUST_PROXY', () => {
  it('links follow X-Forwarded-Proto/-Host only when the proxy is trusted', async () => {
    const forwarded = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'files.pinfold.example' }
    const linkOrigin = async (server: TestServer) => {
      const up = await server.api('/v3/files', { method: 'POST', body: form({ network: 'private' }, { bytes: 'p' }) })
      const { cid } = ((await up.json()) as { data: { cid: string } }).data
      const res = await server.api('/v3/files/private/download_link', {
        method: 'POST',
        headers: forwarded,
        body: JSON.stringify({ url: `x/files/${cid}`, expires: 60 }),
      })
      return new URL(((await res.json()) as { data: string }).data).origin
    }
    const trusting = await startTestServer({ PINFOLD_TRUST_PROXY: '1' })
    const direct = await startTestServer()
    try {
      expect(await linkOrigin(trusting)).toBe('https://files.pinfold.example')
      expect(await linkOrigin(direct)).toBe(direct.url)
    } finally {
      await Promise.all([trusting.close(), direct.close()])
    }
  })
})

describe('subdomain gateway - configuration', () => {
  it("PINFOLD_SUBDOMAIN_GATEWAY_HOST - set, that host; unset, the public URL's host name, else any {cid}.ipfs.{host}", async () => {
    const servers = [
      [await startTestServer({ PINFOLD_SUBDOMAIN_GATEWAY_HOST: 'dweb.pinfold.example' }), 'dweb.pinfold.example'],
      [await startTestServer({ PINFOLD_PUBLIC_URL: 'http://files.pinfold.example' }), 'files.pinfold.example'],
      [await startTestServer(), 'localhost'],
    ] as const
    try {
      for (const [server, host] of servers) {
        const form = new FormData()
        form.append('file', new Blob(['subdomain bytes']), 'a.txt')
        form.append('network', 'public')
        const res = await server.api('/v3/files', { method: 'POST', body: form })
        const { cid } = ((await res.json()) as { data: { cid: string } }).data
        const served = await requestWithHost(server.url, `${cid}.ipfs.${host}:3000`, '/')
        expect(served.status, host).toBe(200)
        expect(served.body, host).toBe('subdomain bytes')
      }
      // a configured host is the only subdomain gateway
      const [configured] = servers[0]
      expect((await requestWithHost(configured.url, 'not-a-cid.ipfs.localhost', '/healthz')).status).toBe(200)
    } finally {
      for (const [server] of servers) await server.close()
    }
  })
})

describe('settings the in-process suites pass as options', () => {
  let server: TestServer
  let embeddings: Awaited<ReturnType<typeof startFakeEmbeddings>>
  let jwks: Server
  let keys: Awaited<ReturnType<typeof generateKeyPair>>
  beforeAll(async () => {
    embeddings = await startFakeEmbeddings()
    keys = await generateKeyPair('ES256', { extractable: true })
    const body = JSON.stringify({ keys: [{ ...(await exportJWK(keys.publicKey)), kid: 'k1', alg: 'ES256' }] })
    jwks = createServer((_, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body))
    await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve))
    server = await startTestServer({
      PINFOLD_MAX_UPLOAD_BYTES: '1000',
      PINFOLD_X402_PAY_TO: PAY_TO,
      PINFOLD_EMBEDDINGS_URL: embeddings.url,
      PINFOLD_EMBEDDINGS_MODEL: 'fake',
      PINFOLD_EMBEDDINGS_DIMENSIONS: '8',
      PINFOLD_JWKS_URL: `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks.json`,
      PINFOLD_PUBLIC_URL: 'https://files.pinfold.example/api',
    })
  })
  afterAll(async () => {
    await server?.close()
    await embeddings?.close()
    await new Promise((resolve) => jwks?.close(resolve))
  })

  it('serve - the upload limit, x402 recipient, embeddings endpoint, JWKS and public URL are the configured ones', async () => {
    const auth = await new SignJWT({ org: 'acme', scope: SCOPES.join(' ') })
      .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
      .setSubject('alice')
      .setExpirationTime('5m')
      .sign(keys.privateKey)
    // PINFOLD_JWKS_URL: a token of the key set is accepted, one signed with the test secret is not
    expect((await server.api('/v3/groups/private', { auth: await server.token() })).status).toBe(401)
    const group = await server.api('/v3/groups/private', { method: 'POST', body: '{"name":"docs"}', auth })
    expect(group.status).toBe(200)
    const groupId = ((await group.json()) as { data: { id: string } }).data.id
    // PINFOLD_MAX_UPLOAD_BYTES
    const big = await server.api('/v3/files', { method: 'POST', body: form({}, { bytes: 'x'.repeat(1001) }), auth })
    expect(big.status).toBe(413)
    // PINFOLD_EMBEDDINGS_URL: vectorizing calls the configured endpoint
    const text = form({ network: 'private', group_id: groupId }, { bytes: 'cats and dogs', name: 'a.txt' })
    const file = await server.api('/v3/files', { method: 'POST', body: text, auth })
    const { id } = ((await file.json()) as { data: { id: string } }).data
    expect((await server.api(`/v3/vectorize/files/${id}`, { method: 'POST', auth })).status).toBe(200)
    // PINFOLD_X402_PAY_TO: the default recipient of new payment instructions
    const instruction = await server.api('/v3/x402/payment_instructions', {
      method: 'POST',
      body: JSON.stringify({ name: 'defaults' }),
      auth,
    })
    const { data } = (await instruction.json()) as { data: { payment_requirements: { pay_to: string }[] } }
    expect(data.payment_requirements[0]!.pay_to).toBe(PAY_TO)
    // PINFOLD_PUBLIC_URL: links are built on it
    const sign = await server.api('/v3/files/sign', { method: 'POST', body: '{"expires":60}', auth })
    expect(((await sign.json()) as { data: string }).data).toMatch(
      /^https:\/\/files\.pinfold\.example\/api\/v3\/files\//,
    )
  })
})

describe('gateway usage rows - PINFOLD_USAGE_MAX_ROWS_PER_DAY', () => {
  it('readConfig - 10 000 by default, a positive integer when set, anything else refused at start-up', async () => {
    const { readConfig } = await import('../src/config.js')
    expect(readConfig({}).maxUsageRowsPerDay).toBe(10_000)
    expect(readConfig({ PINFOLD_USAGE_MAX_ROWS_PER_DAY: '250' }).maxUsageRowsPerDay).toBe(250)
    for (const bad of ['0', '-3', '1.5', 'lots']) {
      expect(() => readConfig({ PINFOLD_USAGE_MAX_ROWS_PER_DAY: bad })).toThrow(/PINFOLD_USAGE_MAX_ROWS_PER_DAY/)
    }
  })
})

describe('prepared statements on PostgreSQL - PINFOLD_DATABASE_PREPARED_STATEMENTS', () => {
  it('readConfig - on by default, "false" turns them off (a pooler that moves sessions), anything else refused', async () => {
    const { readConfig } = await import('../src/config.js')
    expect(readConfig({}).databasePreparedStatements).toBe(true)
    expect(readConfig({ PINFOLD_DATABASE_PREPARED_STATEMENTS: 'false' }).databasePreparedStatements).toBe(false)
    expect(() => readConfig({ PINFOLD_DATABASE_PREPARED_STATEMENTS: 'off' })).toThrow(
      /PINFOLD_DATABASE_PREPARED_STATEMENTS.*"true" or "false"/,
    )
  })
})

describe('gateway read cache - PINFOLD_GATEWAY_CACHE_MB, PINFOLD_GATEWAY_CACHE_TTL_MS', () => {
  it('readConfig - 64 MiB and 60 s by default, 0 MB turns it off, anything else refused at start-up', async () => {
    const { readConfig } = await import('../src/config.js')
    expect(readConfig({}).gatewayCache).toEqual({ maxBytes: 64 * 1024 * 1024, ttlMs: 60_000 })
    expect(readConfig({ PINFOLD_GATEWAY_CACHE_MB: '0', PINFOLD_GATEWAY_CACHE_TTL_MS: '500' }).gatewayCache).toEqual({
      maxBytes: 0,
      ttlMs: 500,
    })
    for (const bad of ['-1', '1.5', 'lots']) {
      expect(() => readConfig({ PINFOLD_GATEWAY_CACHE_MB: bad })).toThrow(/PINFOLD_GATEWAY_CACHE_MB/)
    }
    expect(() => readConfig({ PINFOLD_GATEWAY_CACHE_TTL_MS: '0' })).toThrow(/PINFOLD_GATEWAY_CACHE_TTL_MS/)
  })
})

describe('workers - PINFOLD_WORKERS', () => {
  it('readConfig - the cores on a PostgreSQL server, 1 on the embedded default and on memory stores, where more is refused at start-up', async () => {
    const { readConfig } = await import('../src/config.js')
    const { availableParallelism } = await import('node:os')
    expect(readConfig({}).workers).toBe(1)
    expect(readConfig({ DATABASE_URL: 'postgres://x/y' }).workers).toBe(availableParallelism())
    expect(readConfig({ PINFOLD_WORKERS: '2' }).workers).toBe(2)
    expect(readConfig({ PINFOLD_WORKERS: '3' }).workers).toBe(3)
    expect(readConfig({ PINFOLD_STORAGE: 'memory' }).workers).toBe(1)
    expect(readConfig({ PINFOLD_STORAGE: 'memory', PINFOLD_WORKERS: '1' }).workers).toBe(1)
    // records in PostgreSQL but blobs in this process's memory: still not shared
    expect(() =>
      readConfig({ PINFOLD_STORAGE: 'memory', DATABASE_URL: 'postgres://x/y', PINFOLD_WORKERS: '2' }),
    ).toThrow(/`PINFOLD_WORKERS` is 2, but PINFOLD_STORAGE=memory keeps records or blobs in one process/)
    expect(
      readConfig({
        PINFOLD_STORAGE: 'memory',
        DATABASE_URL: 'postgres://x/y',
        PINFOLD_S3_BUCKET: 'b',
        PINFOLD_WORKERS: '2',
      }).workers,
    ).toBe(2)
    for (const bad of ['0', '-1', '1.5', 'all'])
      expect(() => readConfig({ PINFOLD_WORKERS: bad })).toThrow(/PINFOLD_WORKERS/)
  })
})

describe('default limits - PINFOLD_QUOTA_*', () => {
  it('readConfig - no limit by default, a non-negative integer when set, anything else refused at start-up', async () => {
    const { readConfig } = await import('../src/config.js')
    expect(readConfig({}).quotas).toEqual({
      storageBytes: null,
      files: null,
      fileBytes: null,
      openPinRequests: null,
      requestsPerMinute: null,
      vectorizedFiles: null,
    })
    const set = readConfig({
      PINFOLD_QUOTA_STORAGE_BYTES: '1099511627776',
      PINFOLD_QUOTA_FILES: '0',
      PINFOLD_QUOTA_VECTORIZED_FILES: '10000',
      PINFOLD_QUOTA_REQUESTS_PER_MINUTE: '',
    }).quotas
    expect(set).toMatchObject({ storageBytes: 2 ** 40, files: 0, vectorizedFiles: 10_000, requestsPerMinute: null })
    for (const bad of ['-1', '1.5', 'lots']) {
      expect(() => readConfig({ PINFOLD_QUOTA_FILE_BYTES: bad })).toThrow(/PINFOLD_QUOTA_FILE_BYTES/)
    }
  })
})
