import { PinataSDK, pinnedFileCount, totalStorageUsage } from 'pinata'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pinataFor } from '../support/sdk.js'
import { startTestServer, type TestServer } from '../support/server.js'

describe('official SDK - API keys', () => {
  let server: TestServer
  let pinata: PinataSDK
  beforeAll(async () => {
    server = await startTestServer()
    pinata = pinataFor(server.url, await server.token())
  })
  afterAll(() => server.close())

  it('keys.create - the JWT it answers works with the SDK, within the permissions given', async () => {
    const key = await pinata.keys.create({
      keyName: 'uploader',
      permissions: { endpoints: { pinning: { pinFileToIPFS: true, pinJSONToIPFS: true } } },
    })
    expect(key).toEqual({
      JWT: expect.any(String),
      pinata_api_key: expect.stringMatching(/^[0-9a-f]{20}$/),
      pinata_api_secret: expect.stringMatching(/^[0-9a-f]{64}$/),
    })
    const uploader = pinataFor(server.url, key.JWT)
    expect(await uploader.testAuthentication()).toEqual({
      message: 'Congratulations! You are communicating with the Pinata API!',
    })
    const uploaded = await uploader.upload.public.json({ by: 'key' })
    expect(uploaded.cid).toMatch(/^bafk/)
    await expect(uploader.groups.public.list()).rejects.toMatchObject({ name: 'AuthenticationError', statusCode: 403 })
  })

  it('keys.create - a token holding only the scopes the spec names creates an admin key; the SDK works with it', async () => {
    const spec = pinataFor(
      server.url,
      await server.token({
        org: 'sdk-spec-scopes',
        scopes: ['org:files:write', 'org:groups:write', 'org:groups:read', 'org:gateways:read', 'org:write'],
      }),
    )
    const key = await spec.keys.create({ keyName: 'admin by spec', permissions: { admin: true }, maxUses: 50 })
    const admin = pinataFor(server.url, key.JWT)
    const group = await admin.groups.public.create({ name: 'by the admin key' })
    const file = await admin.upload.public.file(new File(['by admin'], 'admin.txt')).group(group.id)
    expect((await admin.files.public.list().group(group.id)).files.map((f) => f.cid)).toEqual([file.cid])
    expect((await spec.keys.list()).map((k) => k.name)).toEqual(['admin by spec'])
    expect(await spec.keys.revoke([key.pinata_api_key])).toEqual([{ key: key.pinata_api_key, status: 'Revoked' }])
    await expect(admin.testAuthentication()).rejects.toMatchObject({ statusCode: 401 })
  })

  it('keys.create - maxUses: the key answers that many requests, then 401', async () => {
    const key = await pinata.keys.create({ keyName: 'thrice', permissions: { admin: true }, maxUses: 3 })
    const limited = pinataFor(server.url, key.JWT)
    for (let i = 0; i < 3; i++) await limited.testAuthentication()
    await expect(limited.testAuthentication()).rejects.toMatchObject({ name: 'AuthenticationError', statusCode: 401 })
  })

  it('keys.list - filters name, revoked, limitedUse, exhausted and offset as the SDK sends them', async () => {
    const org = pinataFor(server.url, await server.token({ org: 'sdk-list' }))
    const plain = await org.keys.create({ keyName: 'Deploy bot', permissions: { admin: true } })
    const limited = await org.keys.create({ keyName: 'deploy once', permissions: { admin: true }, maxUses: 1 })
    await pinataFor(server.url, limited.JWT).testAuthentication()
    const revoked = await org.keys.create({ keyName: 'retired', permissions: { admin: true } })
    await org.keys.revoke([revoked.pinata_api_key])

    const all = await org.keys.list()
    expect(all.map((k) => k.key)).toEqual([revoked, limited, plain].map((k) => k.pinata_api_key))
    expect(all[2]).toMatchObject({
      name: 'Deploy bot',
      max_uses: null,
      revoked: false,
      scopes: { admin: true },
      user_id: 'alice',
    })
    expect((await org.keys.list().name('deploy')).map((k) => k.name)).toEqual(['deploy once', 'Deploy bot'])
    expect((await org.keys.list().revoked(true)).map((k) => k.name)).toEqual(['retired'])
    expect((await org.keys.list().limitedUse(true)).map((k) => k.name)).toEqual(['deploy once'])
    expect(await org.keys.list().exhausted(true)).toMatchObject([{ name: 'deploy once', uses: 1, max_uses: 1 }])
    expect((await org.keys.list().exhausted(false).revoked(false)).map((k) => k.name)).toEqual(['Deploy bot'])
    expect((await org.keys.list().offset(2)).map((k) => k.name)).toEqual(['Deploy bot'])
    const iterated: string[] = []
    for await (const key of org.keys.list()) iterated.push(key.name)
    expect(iterated).toEqual(['retired', 'deploy once', 'Deploy bot'])
  })

  it('keys.revoke - answers "Revoked" per key; a revoked key gets 401 and an unknown one is reported', async () => {
    const first = await pinata.keys.create({ keyName: 'a', permissions: { admin: true } })
    const second = await pinata.keys.create({ keyName: 'b', permissions: { admin: true } })
    const answers = await pinata.keys.revoke([first.pinata_api_key, second.pinata_api_key, 'no-such-key'])
    expect(answers.slice(0, 2)).toEqual([
      { key: first.pinata_api_key, status: 'Revoked' },
      { key: second.pinata_api_key, status: 'Revoked' },
    ])
    expect(answers[2]).toMatchObject({ key: 'no-such-key', status: expect.stringContaining('API key not found') })
    await expect(pinataFor(server.url, first.JWT).testAuthentication()).rejects.toMatchObject({
      name: 'AuthenticationError',
      statusCode: 401,
    })
  })

  it('legacy headers - a key and secret in customHeaders authenticate the legacy endpoints', async () => {
    const org = pinataFor(server.url, await server.token({ org: 'sdk-legacy' }))
    const key = await org.keys.create({ keyName: 'legacy', permissions: { admin: true } })
    await org.upload.public.file(new File(['legacy'], 'legacy.txt'))
    const legacy = new PinataSDK({
      endpointUrl: `${server.url}/v3`,
      customHeaders: { pinata_api_key: key.pinata_api_key, pinata_secret_api_key: key.pinata_api_secret },
    })
    expect(await legacy.testAuthentication()).toMatchObject({ message: expect.stringContaining('Congratulations') })
    expect(await pinnedFileCount(legacy.config)).toBe(1)
    // Pinata's own paths are /data/… (its default endpoint has no /v3): served as well
    const rooted = { ...legacy.config!, endpointUrl: server.url }
    expect(await totalStorageUsage(rooted)).toBe(6)
    const wrong = { ...rooted, customHeaders: { ...rooted.customHeaders, pinata_secret_api_key: '0'.repeat(64) } }
    await expect(pinnedFileCount(wrong)).rejects.toMatchObject({ name: 'AuthenticationError', statusCode: 401 })
  })
})
