import { API_KEY_CACHE_MS, type Clock } from '@pinfold/core'
import { form, startTestApi, TEST_SECRET, type TestApi } from '@pinfold/testing/test-api'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

interface CreatedKey {
  JWT: string
  pinata_api_key: string
  pinata_api_secret: string
}

interface ListedKey {
  id: string
  name: string
  key: string
  secret: string
  max_uses: number | null
  uses: number
  revoked: boolean
  scopes: Record<string, unknown>
}

const UPLOADER = { endpoints: { pinning: { pinFileToIPFS: true, pinJSONToIPFS: true } } }

describe('/v3/pinata/keys', () => {
  let server: TestApi
  beforeAll(async () => {
    server = await startTestApi()
  })
  afterAll(() => server.close())

  const createKey = async (body: Record<string, unknown>, init: { auth?: string; org?: string } = {}) => {
    const res = await server.api('/v3/pinata/keys', { method: 'POST', body: JSON.stringify(body), ...init })
    return { status: res.status, body: (await res.json()) as CreatedKey & { error?: string } }
  }
  const newKey = async (body: Record<string, unknown> = {}, org?: string) => {
    const { status, body: created } = await createKey({ keyName: 'ci', permissions: UPLOADER, ...body }, { org })
    expect(status).toBe(200)
    return created
  }
  const listKeys = async (query = '', org?: string) => {
    const res = await server.api(`/v3/pinata/keys${query}`, { org })
    expect(res.status).toBe(200)
    return (await res.json()) as { keys: ListedKey[]; count: number }
  }
  const upload = (auth: string) =>
    server.api('/v3/files', { method: 'POST', body: form({ network: 'public' }, { bytes: 'by key' }), auth })

  it('create - answers a JWT, a public key and a secret; the JWT works within the granted scopes only', async () => {
    const created = await newKey()
    expect(created).toEqual({
      JWT: expect.stringMatching(/^ey[\w-]+\.[\w-]+\.[\w-]+$/),
      pinata_api_key: expect.stringMatching(/^[0-9a-f]{20}$/),
      pinata_api_secret: expect.stringMatching(/^[0-9a-f]{64}$/),
    })
    expect((await upload(created.JWT)).status).toBe(200)
    const groups = await server.api('/v3/groups/public', { auth: created.JWT })
    expect(groups.status).toBe(403)
    expect(await groups.json()).toEqual({ error: 'this token lacks the org:groups:read scope' })
  })

  it('create - the secret is never stored: the record holds a hash that differs from it', async () => {
    const created = await newKey()
    const record = await server.stores.records.apiKeys.findApiKey(created.pinata_api_key)
    expect(record).toBeDefined()
    expect(JSON.stringify(record)).not.toContain(created.pinata_api_secret)
    expect(record!.secretHash).toMatch(/^[0-9a-f]{64}$/)
    const listed = (await listKeys()).keys.find((k) => k.key === created.pinata_api_key)
    expect(listed?.secret).toBe('')
  })

  it('create - admin grants every scope; resources grant the scopes they name', async () => {
    const admin = await newKey({ permissions: { admin: true } })
    expect((await server.api('/v3/groups/public', { auth: admin.JWT })).status).toBe(200)
    const reader = await newKey({ permissions: { resources: ['org:groups:read'] } })
    expect((await server.api('/v3/groups/public', { auth: reader.JWT })).status).toBe(200)
    expect((await upload(reader.JWT)).status).toBe(403)
  })

  it.each([
    ['no permissions', { keyName: 'x', permissions: {} }, /grant nothing/],
    [
      'an unknown endpoint',
      { keyName: 'x', permissions: { endpoints: { pinning: { pinEverything: true } } } },
      /pinEverything/,
    ],
    ['an unknown resource', { keyName: 'x', permissions: { resources: ['org:root'] } }, /org:root/],
    ['an empty name', { keyName: ' ', permissions: UPLOADER }, /keyName/],
    ['maxUses 0', { keyName: 'x', permissions: UPLOADER, maxUses: 0 }, /maxUses/],
  ])('create - %s is a 400 and creates nothing', async (_, body, message) => {
    const before = (await listKeys()).count
    const { status, body: answer } = await createKey(body)
    expect(status).toBe(400)
    expect(answer.error).toMatch(message)
    expect((await listKeys()).count).toBe(before)
  })

  it("create - a key never grants more than its creator's token holds (403), and needs org:write", async () => {
    const limited = await server.token({ scopes: ['org:write', 'org:files:write'] })
    expect((await createKey({ keyName: 'x', permissions: UPLOADER }, { auth: limited })).status).toBe(200)
    const escalation = await createKey({ keyName: 'x', permissions: { admin: true } }, { auth: limited })
    expect(escalation.status).toBe(403)
    expect(escalation.body.error).toMatch(/cannot grant/)
    const noOrg = await server.token({ scopes: ['org:files:write'] })
    expect((await createKey({ keyName: 'x', permissions: UPLOADER }, { auth: noOrg })).status).toBe(403)
  })

  it('create - a token holding exactly the scopes the spec names creates an admin key, which works everywhere', async () => {
    const spec = await server.token({
      scopes: ['org:files:write', 'org:groups:write', 'org:groups:read', 'org:gateways:read', 'org:write'],
    })
    const admin = await createKey({ keyName: 'admin', permissions: { admin: true } }, { auth: spec })
    expect(admin.status).toBe(200)
    expect((await upload(admin.body.JWT)).status).toBe(200)
    expect((await server.api('/v3/gateways/domains', { auth: admin.body.JWT })).status).toBe(200)
    expect((await server.api('/v3/x402/payment_instructions', { auth: admin.body.JWT })).status).toBe(200)
    // and an admin key, holding every scope, creates admin keys in turn
    expect((await createKey({ keyName: 'child', permissions: { admin: true } }, { auth: admin.body.JWT })).status).toBe(
      200,
    )
  })

  it('maxUses - of 12 concurrent requests with a key allowed 5 uses, exactly 5 succeed; the rest get 401', async () => {
    const key = await newKey({ maxUses: 5, permissions: { admin: true } })
    const statuses = await Promise.all(
      Array.from({ length: 12 }, async () => (await server.api('/v3/groups/public', { auth: key.JWT })).status),
    )
    expect(statuses.filter((s) => s === 200)).toHaveLength(5)
    expect(statuses.filter((s) => s === 401)).toHaveLength(7)
    const exhausted = await server.api('/v3/groups/public', { auth: key.JWT })
    expect(await exhausted.json()).toEqual({ error: 'this API key has no uses left' })
    const listed = (await listKeys('?exhausted=true')).keys.find((k) => k.key === key.pinata_api_key)
    expect(listed).toMatchObject({ uses: 5, max_uses: 5 })
  })

  it('revoke - answers "Revoked"; the JWT and the key and secret get 401 from then on', async () => {
    const key = await newKey({ permissions: { admin: true } })
    expect((await server.api('/v3/groups/public', { auth: key.JWT })).status).toBe(200)
    const res = await server.api(`/v3/pinata/keys/${key.pinata_api_key}`, { method: 'PUT' })
    expect(res.status).toBe(200)
    expect(await res.json()).toBe('Revoked')
    const refused = await server.api('/v3/groups/public', { auth: key.JWT })
    expect(refused.status).toBe(401)
    expect(await refused.json()).toEqual({ error: 'this API key has been revoked' })
    const legacy = await server.api('/data/testAuthentication', { auth: null, headers: legacyHeaders(key) })
    expect(legacy.status).toBe(401)
  })

  it("revoke - another tenant's key is 404 and stays usable", async () => {
    const key = await newKey({ permissions: { admin: true } }, 'globex')
    expect((await server.api(`/v3/pinata/keys/${key.pinata_api_key}`, { method: 'PUT' })).status).toBe(404)
    expect((await server.api('/v3/groups/public', { auth: key.JWT })).status).toBe(200)
  })

  it("list - the tenant's keys only, newest first, with the SDK's filters", async () => {
    const org = 'list-tenant'
    const plain = await newKey({ keyName: 'Deploy bot' }, org)
    const limited = await newKey({ keyName: 'uploads', maxUses: 3 }, org)
    const revoked = await newKey({ keyName: 'old deploy' }, org)
    await server.api(`/v3/pinata/keys/${revoked.pinata_api_key}`, { method: 'PUT', org })
    await newKey({ keyName: 'deploy elsewhere' }, 'another-tenant')
    const keysOf = async (query: string) => (await listKeys(query, org)).keys.map((k) => k.key)
    expect(await keysOf('')).toEqual([revoked, limited, plain].map((k) => k.pinata_api_key))
    expect(await keysOf('?name=deploy')).toEqual([revoked.pinata_api_key, plain.pinata_api_key])
    expect(await keysOf('?revoked=true')).toEqual([revoked.pinata_api_key])
    expect(await keysOf('?limitedUse=true')).toEqual([limited.pinata_api_key])
    expect(await keysOf('?exhausted=false&revoked=false')).toEqual([limited.pinata_api_key, plain.pinata_api_key])
    expect(await keysOf('?offset=2')).toEqual([plain.pinata_api_key])
    const listed = await listKeys('?limitedUse=true', org)
    expect(listed.count).toBe(1)
    expect(listed.keys[0]).toMatchObject({ name: 'uploads', max_uses: 3, uses: 0, revoked: false, scopes: UPLOADER })
  })

  it('legacy headers - pinata_api_key and pinata_secret_api_key authenticate on the legacy API, not on /v3', async () => {
    const key = await newKey({ permissions: { admin: true } })
    const headers = legacyHeaders(key)
    expect((await server.api('/data/testAuthentication', { auth: null, headers })).status).toBe(200)
    const pinned = await server.api('/pinning/pinFileToIPFS', {
      method: 'POST',
      auth: null,
      headers,
      body: form({}, { bytes: 'legacy pin', name: 'legacy.txt' }),
    })
    expect(pinned.status).toBe(200)
    for (const path of ['/data/userPinnedDataTotal', '/v3/data/userPinnedDataTotal']) {
      expect((await server.api(path, { auth: null, headers })).status).toBe(200)
    }
    // they win over an unusable Authorization header, as the SDK sends one beside customHeaders
    const beside = await server.api('/data/testAuthentication', { auth: 'undefined', headers })
    expect(beside.status).toBe(200)
    const v3 = await server.api('/v3/groups/public', { auth: null, headers })
    expect(v3.status).toBe(401)
    expect(await v3.json()).toEqual({ error: 'an Authorization: Bearer <token> header is required' })
  })

  it('legacy headers - a wrong secret or an unknown key is 401', async () => {
    const key = await newKey({ permissions: { admin: true } })
    for (const headers of [
      { pinata_api_key: key.pinata_api_key, pinata_secret_api_key: 'f'.repeat(64) },
      { pinata_api_key: 'nope', pinata_secret_api_key: key.pinata_api_secret },
      { pinata_api_key: key.pinata_api_key, pinata_secret_api_key: '' },
    ]) {
      const res = await server.api('/data/testAuthentication', { auth: null, headers })
      expect(res.status).toBe(401)
      expect(await res.json()).toEqual({ error: 'the API key or its secret is wrong' })
    }
  })

  describe('keys created by keys', () => {
    const mint = (parent: CreatedKey, body: Record<string, unknown>) =>
      createKey({ keyName: 'minted', permissions: { admin: true }, ...body }, { auth: parent.JWT })
    const keyRecord = async (key: CreatedKey) => (await server.stores.records.apiKeys.findApiKey(key.pinata_api_key))!

    it('create - a key with maxUses 1 cannot create a key that keeps working after it is used up (403)', async () => {
      const parent = await newKey({ maxUses: 1, permissions: { admin: true } })
      const unlimited = await mint(parent, {})
      expect(unlimited.status).toBe(403)
      expect(unlimited.body.error).toMatch(/uses/)
      // the create request was the parent's one use: nothing was created, and it is spent
      expect((await server.api('/v3/groups/public', { auth: parent.JWT })).status).toBe(401)
    })

    it("create - a limited key's child spends the parent's uses: never more uses than the parent had left", async () => {
      const parent = await newKey({ maxUses: 6, permissions: { admin: true } })
      const unlimited = await mint(parent, {})
      expect(unlimited.status).toBe(403)
      expect(unlimited.body.error).toMatch(/maxUses/)
      // every request is one use: after this one (the second), 4 are left to give
      const tooMany = await mint(parent, { maxUses: 5 })
      expect(tooMany.status).toBe(403)
      expect(tooMany.body.error).toMatch(/4 uses left/)
      // the third leaves 3, all of them given
      const child = await mint(parent, { maxUses: 3 })
      expect(child.status).toBe(200)
      const parentRecord = await keyRecord(parent)
      expect(parentRecord).toMatchObject({ maxUses: 6, uses: 6 })
      expect(await keyRecord(child.body)).toMatchObject({ maxUses: 3, uses: 0, parentId: parentRecord.id })
      const statuses = []
      for (let i = 0; i < 4; i++)
        statuses.push((await server.api('/v3/groups/public', { auth: child.body.JWT })).status)
      expect(statuses).toEqual([200, 200, 200, 401])
      expect((await server.api('/v3/groups/public', { auth: parent.JWT })).status).toBe(401)
    })

    it("create - a key's child never holds scopes its parent lacks (403)", async () => {
      const parent = await newKey({ permissions: { resources: ['org:write', 'org:files:write'] } })
      expect((await mint(parent, { permissions: { admin: true } })).status).toBe(403)
      expect((await mint(parent, { permissions: UPLOADER })).status).toBe(200)
    })

    it('revoke - revoking a key revokes the keys it created, and theirs; other keys stay', async () => {
      const parent = await newKey({ permissions: { admin: true } })
      const child = (await mint(parent, {})).body
      const grandchild = (await mint(child, { permissions: UPLOADER })).body
      const sibling = await newKey({ permissions: { admin: true } })
      for (const key of [child, grandchild]) expect((await upload(key.JWT)).status).toBe(200)
      expect((await server.api(`/v3/pinata/keys/${parent.pinata_api_key}`, { method: 'PUT' })).status).toBe(200)
      for (const key of [parent, child, grandchild]) {
        const refused = await upload(key.JWT)
        expect(refused.status).toBe(401)
        expect(await refused.json()).toEqual({ error: 'this API key has been revoked' })
      }
      expect((await upload(sibling.JWT)).status).toBe(200)
      const listed = await listKeys('?revoked=true')
      for (const key of [parent, child, grandchild]) expect(listed.keys.map((k) => k.key)).toContain(key.pinata_api_key)
      expect(listed.keys.map((k) => k.key)).not.toContain(sibling.pinata_api_key)
    })
  })

  it("tokens - a key's JWT re-signed with the server's token secret, or tampered with, is 401", async () => {
    const key = await newKey({ permissions: { admin: true } })
    const [header, payload] = key.JWT.split('.')
    const { SignJWT } = await import('jose')
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString())
    const resigned = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode(TEST_SECRET))
    expect((await server.api('/v3/groups/public', { auth: resigned })).status).toBe(401)
    const otherTenant = Buffer.from(JSON.stringify({ ...claims, org: 'globex' })).toString('base64url')
    const tampered = `${header}.${otherTenant}.${key.JWT.split('.')[2]}`
    expect((await server.api('/v3/groups/public', { auth: tampered })).status).toBe(401)
  })
})

describe('API keys across servers sharing one record store', () => {
  let now = Date.parse('2026-03-01T00:00:00Z')
  const clock: Clock = { now: () => new Date(now) }
  let first: TestApi
  let second: TestApi
  beforeAll(async () => {
    first = await startTestApi({ storage: 'memory', clock })
    second = await startTestApi({ records: first.stores.records, blobs: first.stores.blobs, clock })
  })
  afterAll(async () => {
    await second.close()
    await first.close()
  })

  it(`revoke - another server refuses the key within ${API_KEY_CACHE_MS / 1000} s`, async () => {
    const res = await first.api('/v3/pinata/keys', {
      method: 'POST',
      body: JSON.stringify({ keyName: 'shared', permissions: { admin: true } }),
    })
    const key = (await res.json()) as CreatedKey
    expect((await second.api('/v3/groups/public', { auth: key.JWT })).status).toBe(200)
    await first.api(`/v3/pinata/keys/${key.pinata_api_key}`, { method: 'PUT' })
    expect((await first.api('/v3/groups/public', { auth: key.JWT })).status).toBe(401)
    now += API_KEY_CACHE_MS
    expect((await second.api('/v3/groups/public', { auth: key.JWT })).status).toBe(401)
  })

  it('maxUses - uses on both servers count against one limit', async () => {
    const res = await first.api('/v3/pinata/keys', {
      method: 'POST',
      body: JSON.stringify({ keyName: 'limited', permissions: { admin: true }, maxUses: 4 }),
    })
    const key = (await res.json()) as CreatedKey
    const statuses = await Promise.all(
      [first, second, first, second, first, second].map(
        async (server) => (await server.api('/v3/groups/public', { auth: key.JWT })).status,
      ),
    )
    expect(statuses.filter((s) => s === 200)).toHaveLength(4)
  })
})

function legacyHeaders(key: CreatedKey): Record<string, string> {
  return { pinata_api_key: key.pinata_api_key, pinata_secret_api_key: key.pinata_api_secret }
}
