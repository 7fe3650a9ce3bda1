import { createMemoryBlobStore, createMemoryRecordStore } from '@pinfold/adapter-memory'
import { describe, expect, it } from 'vitest'
import { allows, createFileService, createTokenVerifier, SCOPES, type Scope } from '../../src/index.js'

const SECRET = 'a-signing-secret-that-is-long-enough-0123456789'
const maker = { tenantId: 'acme', userId: 'alice', scopes: new Set<string>(SCOPES) }

function service() {
  return createFileService({
    records: createMemoryRecordStore(),
    blobs: createMemoryBlobStore(),
    signingSecret: SECRET,
  })
}

describe('API keys in the service', () => {
  const scopesOf = async (permissions: unknown) => {
    const s = service()
    const { jwt } = await s.apiKeys.create(maker, { name: 'k', permissions })
    return [...((await s.apiKeys.authenticateToken(jwt))?.scopes ?? [])].sort()
  }

  it.each<[string, unknown, Scope[]]>([
    ['admin', { admin: true }, [...SCOPES]],
    ['pinning endpoints', { endpoints: { pinning: { pinFileToIPFS: true, unpin: true } } }, ['org:files:write']],
    [
      'pinJobs and data endpoints',
      { endpoints: { pinning: { pinJobs: true }, data: { pinList: true } } },
      ['org:files:read'],
    ],
    [
      'a false flag grants nothing of its own',
      { endpoints: { pinning: { pinFileToIPFS: false, pinJobs: true } } },
      ['org:files:read'],
    ],
    ['resources', { resources: ['org:groups:read', 'org:analytics:read'] }, ['org:analytics:read', 'org:groups:read']],
    ['admin false with resources', { admin: false, resources: ['org:read'] }, ['org:read']],
  ])('permissions - %s', async (_, permissions, scopes) => {
    expect(await scopesOf(permissions)).toEqual([...scopes].sort())
  })

  it.each<[string, unknown]>([
    ['not an object', 'admin'],
    ['an unknown key', { owner: true }],
    ['a non-boolean admin', { admin: 'yes' }],
    ['an unknown group', { endpoints: { users: { generateApiKey: true } } }],
    ['an inherited name', { endpoints: { pinning: { toString: true } } }],
    ['a non-boolean flag', { endpoints: { pinning: { pinFileToIPFS: 1 } } }],
    ['resources not an array', { resources: 'org:read' }],
    ['nothing granted', { endpoints: { pinning: { pinFileToIPFS: false } } }],
  ])('permissions - %s is INVALID_INPUT and stores nothing', async (_, permissions) => {
    const s = service()
    await expect(s.apiKeys.create(maker, { name: 'k', permissions })).rejects.toMatchObject({ code: 'INVALID_INPUT' })
    expect((await s.apiKeys.list(maker, {})).total).toBe(0)
  })

  it("tokens - a key's JWT is refused by a token verifier holding the same secret: only the key path accepts it", async () => {
    const { jwt } = await service().apiKeys.create(maker, { name: 'k', permissions: { admin: true } })
    await expect(createTokenVerifier({ secret: SECRET }).verify(jwt)).rejects.toMatchObject({
      code: 'UNAUTHENTICATED',
      message: 'token signature is invalid',
    })
  })

  it('tokens - any other bearer token is left to the verifier (undefined), a malformed one included', async () => {
    const s = service()
    expect(await s.apiKeys.authenticateToken('not-a-jwt')).toBeUndefined()
    expect(await s.apiKeys.authenticateToken('e30.e30.x')).toBeUndefined()
  })
})

describe('allows', () => {
  it.each<[string[], Scope, boolean]>([
    [['org:write'], 'org:x402:write', true],
    [['org:write'], 'org:x402:read', true],
    [['org:write'], 'org:analytics:read', true],
    [['org:read'], 'org:analytics:read', true],
    [['org:read'], 'org:x402:read', false],
    [['org:read'], 'org:x402:write', false],
    [['org:write'], 'org:files:write', false],
    [['org:files:write'], 'org:files:read', true],
    [['org:files:read'], 'org:files:write', false],
  ])('%j allows %s: %s', (granted, required, expected) => {
    expect(allows(new Set(granted), required)).toBe(expected)
  })
})
