import { describe, expect, it } from 'vitest'
import { type Actor, PENDING_DOMAIN_TTL_MS, VERIFICATION_PREFIX } from '../../src/index.js'
import { alice, createTestService, mallory, START, type TestService } from '../support/test-service.js'

const NAME = 'files.example.com'

/**
 * Registers `NAME` for `actor` and adds its token to the name's TXT records (beside whatever they
 * hold already), split into character-strings as DNS may split a long value.
 */
async function claimWithTxt(test: TestService, actor: Actor) {
  const claim = await test.service.domains.create(actor, NAME)
  const token = claim.verificationToken
  const name = `${VERIFICATION_PREFIX}${NAME}`
  test.txt.set(name, [...(test.txt.get(name) ?? [['unrelated']]), [token.slice(0, 10), token.slice(10)]])
  return claim
}

const verify = (test: TestService, actor: Actor, id: string) => test.service.domains.verify(actor, id)

describe('domains', () => {
  it('create - a normalised pending claim with a token, lapsing after the pending TTL', async () => {
    const { service } = createTestService()
    const claim = await service.domains.create(alice, ' Files.Example.COM. ')
    expect(claim).toMatchObject({
      tenantId: alice.tenantId,
      domain: NAME,
      status: 'pending_ownership',
      verifiedAt: null,
      expiresAt: new Date(START.getTime() + PENDING_DOMAIN_TTL_MS),
    })
    expect(claim.verificationToken).toMatch(/^pinfold-verify=\S{16,}$/)
    expect(await service.domains.list(alice)).toEqual([claim])
    expect(await service.domains.route(NAME)).toEqual({ tenantId: alice.tenantId, status: 'pending_ownership' })
  })

  it.each([
    ['an IPv4 literal', '127.0.0.1'],
    ['a numeric host', '2130706433'],
    ['an IPv6 literal', '[::1]'],
    ['a single label', 'example'],
    ['an internal name', 'printer.local'],
    ['a name under a reserved host', 'x.api.pinfold.test'],
  ])('create - refuses %s with INVALID_INPUT and stores nothing', async (_what, name) => {
    const { service } = createTestService()
    await expect(service.domains.create(alice, name, ['api.pinfold.test'])).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    })
    expect(await service.domains.list(alice)).toEqual([])
  })

  it('create - the same tenant claiming a name twice is CONFLICT; another tenant may also claim it', async () => {
    const { service } = createTestService()
    await service.domains.create(alice, NAME)
    await expect(service.domains.create(alice, NAME)).rejects.toMatchObject({ code: 'CONFLICT' })
    await service.domains.create(mallory, NAME)
  })

  it('verify - pending until the TXT record holds the token, then active and routed', async () => {
    const test = createTestService()
    const claim = await test.service.domains.create(alice, NAME)
    expect((await verify(test, alice, claim.id)).status).toBe('pending_ownership')
    test.txt.set(`${VERIFICATION_PREFIX}${NAME}`, [['pinfold-verify=wrong']])
    expect((await verify(test, alice, claim.id)).status).toBe('pending_ownership')
    await claimWithTxt(test, mallory) // publishes a token, but mallory's, not alice's
    expect((await verify(test, alice, claim.id)).status).toBe('pending_ownership')
    test.txt.set(`${VERIFICATION_PREFIX}${NAME}`, [[claim.verificationToken]])
    test.clock.advance(5_000)
    const active = await verify(test, alice, claim.id)
    expect(active).toMatchObject({ status: 'active', verifiedAt: new Date(START.getTime() + 5_000), expiresAt: null })
    expect(await test.service.domains.route(`${NAME.toUpperCase()}:8080`)).toEqual({
      tenantId: alice.tenantId,
      status: 'active',
    })
  })

  it('verify - a failing TXT lookup leaves the claim pending rather than failing', async () => {
    const failing = async () => {
      throw Object.assign(new Error('queryTxt ESERVFAIL'), { code: 'ESERVFAIL' })
    }
    const test = createTestService({ resolveTxt: failing })
    const claim = await test.service.domains.create(alice, NAME)
    expect((await verify(test, alice, claim.id)).status).toBe('pending_ownership')
  })

  it('verify - without a resolver (none given to createFileService) is UNAVAILABLE, the claim stays pending', async () => {
    const test = createTestService({ resolveTxt: undefined })
    const claim = await claimWithTxt(test, alice)
    await expect(test.service.domains.verify(alice, claim.id)).rejects.toMatchObject({
      code: 'UNAVAILABLE',
      message: expect.stringContaining('resolveTxt'),
    })
    expect(await test.service.domains.get(alice, claim.id)).toMatchObject({ status: 'pending_ownership' })
  })

  it('verify - the first tenant to verify owns the name; the other is CONFLICT', async () => {
    const test = createTestService()
    const mine = await claimWithTxt(test, mallory)
    const theirs = await claimWithTxt(test, alice)
    expect((await verify(test, alice, theirs.id)).status).toBe('active')
    await expect(verify(test, mallory, mine.id)).rejects.toMatchObject({ code: 'CONFLICT' })
    expect(await test.service.domains.route(NAME)).toEqual({ tenantId: alice.tenantId, status: 'active' })
  })

  it('verify - a claim past its TTL is CONFLICT, neither routes nor blocks a new claim', async () => {
    const test = createTestService()
    const lapsed = await claimWithTxt(test, mallory)
    test.clock.advance(PENDING_DOMAIN_TTL_MS)
    await expect(verify(test, mallory, lapsed.id)).rejects.toMatchObject({ code: 'CONFLICT' })
    expect(await test.service.domains.route(NAME)).toBeUndefined()
    const fresh = await claimWithTxt(test, alice)
    expect((await verify(test, alice, fresh.id)).status).toBe('active')
  })

  it("get - another tenant's domain ids are NOT_FOUND for get, verify and remove", async () => {
    const test = createTestService()
    const claim = await claimWithTxt(test, alice)
    await expect(test.service.domains.get(mallory, claim.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    await expect(verify(test, mallory, claim.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    await expect(test.service.domains.remove(mallory, claim.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    expect(await test.service.domains.get(alice, claim.id)).toEqual(claim)
  })

  it('remove - an active domain stops routing; removing it twice is NOT_FOUND', async () => {
    const test = createTestService()
    const claim = await claimWithTxt(test, alice)
    await verify(test, alice, claim.id)
    await test.service.domains.remove(alice, claim.id)
    expect(await test.service.domains.route(NAME)).toBeUndefined()
    await expect(test.service.domains.remove(alice, claim.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })

  it('route - IP literals and unknown names route nowhere', async () => {
    const { service } = createTestService()
    expect(await service.domains.route('127.0.0.1:3000')).toBeUndefined()
    expect(await service.domains.route('unknown.example.org')).toBeUndefined()
  })
})
