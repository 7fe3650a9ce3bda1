import { createMemoryBlobStore, createMemoryRecordStore } from '@pinfold/adapter-memory'
import { describe, expect, it } from 'vitest'
import { createFileService, mintOperatorToken, mintToken, TENANT_CACHE_MS } from '../../src/index.js'
import { SIGNING_SECRET, testClock } from '../support/test-service.js'

const acme = { tenantId: 'acme', userId: 'alice' }

/** Two servers sharing one record store, each with its own memory of tenants, on one clock. */
async function twoServers() {
  const records = createMemoryRecordStore()
  const clock = testClock()
  const make = () =>
    createFileService({ records, blobs: createMemoryBlobStore(), clock, signingSecret: SIGNING_SECRET })
  const [one, two] = [make(), make()]
  const operator = await one.admin.authenticate(await mintOperatorToken(SIGNING_SECRET, { sub: 'ops', expiresIn: 60 }))
  return { records, clock, one, two, operator }
}

describe('tenant directory', () => {
  it('admit - registers a tenant on its first request, once; later requests write nothing', async () => {
    const { records, one, two } = await twoServers()
    let registrations = 0
    const register = records.tenants.registerTenant
    records.tenants.registerTenant = async (...args) => {
      registrations++
      return register(...args)
    }
    await Promise.all(Array.from({ length: 5 }, () => one.tenants.admit(acme)))
    await two.tenants.admit(acme)
    expect(registrations).toBe(1)
    expect(await records.tenants.getTenant('acme')).toMatchObject({ id: 'acme', origin: 'token', suspension: null })
  })

  it('admit - a suspension takes effect at once where it was made, within TENANT_CACHE_MS elsewhere', async () => {
    const { clock, one, two, operator } = await twoServers()
    await one.tenants.admit(acme)
    await two.tenants.admit(acme)
    await one.admin.suspend(operator, 'acme', { reason: 'unpaid', hideContent: true })
    await expect(one.tenants.admit(acme)).rejects.toMatchObject({ code: 'FORBIDDEN', message: /suspended.*unpaid/ })
    // the other server still trusts what it read, until its memory of the tenant runs out
    await expect(two.tenants.admit(acme)).resolves.toBeUndefined()
    expect(await two.tenants.hiddenTenants()).toEqual(['acme'])
    clock.advance(TENANT_CACHE_MS)
    await expect(two.tenants.admit(acme)).rejects.toMatchObject({ code: 'FORBIDDEN' })
    await one.admin.resume(operator, 'acme')
    await expect(one.tenants.admit(acme)).resolves.toBeUndefined()
    expect(await one.tenants.hiddenTenants()).toEqual([])
  })

  it('authenticate - only operator tokens of this secret; tenant tokens, whatever their scopes, are refused', async () => {
    const { one } = await twoServers()
    const tenant = await mintToken(SIGNING_SECRET, {
      sub: 'mallory',
      scopes: ['pinfold:operator'],
      expiresIn: 60,
    })
    await expect(one.admin.authenticate(tenant)).rejects.toMatchObject({ code: 'UNAUTHENTICATED' })
    const foreign = await mintOperatorToken('another secret of at least thirty-two bytes', { sub: 'x', expiresIn: 60 })
    await expect(one.admin.authenticate(foreign)).rejects.toMatchObject({ code: 'UNAUTHENTICATED' })
    const expired = await mintOperatorToken(SIGNING_SECRET, {
      sub: 'ops',
      expiresIn: 1,
      now: new Date(Date.now() - 10_000),
    })
    await expect(one.admin.authenticate(expired)).rejects.toMatchObject({ code: 'UNAUTHENTICATED' })
  })
})
