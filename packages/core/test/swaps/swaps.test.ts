import { describe, expect, it } from 'vitest'
import { type FileService, type GatewayScope, parseCid } from '../../src/index.js'
import { alice, createTestService, mallory, uploadFile } from '../support/test-service.js'

const own: GatewayScope = { kind: 'tenant', tenantId: alice.tenantId }

/** Three public files of alice's, by CID. */
async function publicCids(service: FileService) {
  const [a, b, c] = await Promise.all(
    ['a', 'b', 'c'].map((text) => uploadFile(service, alice, text, { network: 'public' })),
  )
  return { a: a!.file.cid, b: b!.file.cid, c: c!.file.cid }
}

/** The CID a gateway request for `cid` is answered with. */
async function served(service: FileService, scope: GatewayScope, cid: string) {
  return (await service.gateway.resolve(scope, cid, { swaps: true })).cid.toString()
}

describe('swaps', () => {
  it("add - the tenant's own gateway answers with the target; the shared gateway never swaps", async () => {
    const { service } = createTestService()
    const { a, b } = await publicCids(service)
    const swap = await service.swaps.add(alice, 'public', a, b)
    expect(swap).toMatchObject({ tenantId: alice.tenantId, network: 'public', cid: a, mappedCid: b })
    expect(await served(service, own, a)).toBe(b)
    expect((await service.gateway.resolve(own, a, { swaps: true })).swapped).toBe(true)
    expect(await served(service, { kind: 'public' }, a)).toBe(a)
    // without `swaps` (raw blocks, CARs) a CID always means its own bytes
    expect((await service.gateway.resolve(own, a)).cid.toString()).toBe(a)
  })

  it('resolve - a swap whose target the tenant deleted serves the original CID again', async () => {
    const { service } = createTestService()
    const { a, b } = await publicCids(service)
    await service.swaps.add(alice, 'public', a, b)
    const target = (await service.files.list(alice, 'public', { cid: b })).files[0]!
    await service.files.delete(alice, 'public', target.id)
    expect(await served(service, own, a)).toBe(a)
    expect((await service.gateway.resolve(own, a, { swaps: true })).swapped).toBe(false)
  })

  it('add - chains resolve to their end; a swap that would close a cycle is CONFLICT', async () => {
    const { service } = createTestService()
    const { a, b, c } = await publicCids(service)
    await service.swaps.add(alice, 'public', a, b)
    await service.swaps.add(alice, 'public', b, c)
    expect(await served(service, own, a)).toBe(c)
    await expect(service.swaps.add(alice, 'public', c, a)).rejects.toMatchObject({ code: 'CONFLICT' })
    expect(await served(service, own, c)).toBe(c)
  })

  it('add - both CIDs must be held by the tenant on that network, else NOT_FOUND', async () => {
    const { service } = createTestService()
    const { a, b } = await publicCids(service)
    const { file: secret } = await uploadFile(service, alice, 'private bytes')
    await expect(service.swaps.add(alice, 'public', a, secret.cid)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    await expect(service.swaps.add(alice, 'private', a, b)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    // mallory holds b too, but not a: alice's CID is not hers to redirect
    await uploadFile(service, mallory, 'b', { network: 'public' })
    await expect(service.swaps.add(mallory, 'public', a, b)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    await expect(service.swaps.add(alice, 'public', a, '')).rejects.toMatchObject({ code: 'INVALID_INPUT' })
    await expect(service.swaps.history(alice, 'public', a)).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })

  it("add - one tenant's swap changes nothing on another tenant's gateway", async () => {
    const { service } = createTestService()
    const { a, b } = await publicCids(service)
    const [ma, mb] = [
      await uploadFile(service, mallory, 'a', { network: 'public' }),
      await uploadFile(service, mallory, 'b', { network: 'public' }),
    ]
    expect([ma.file.cid, mb.file.cid]).toEqual([a, b])
    await service.swaps.add(alice, 'public', a, b)
    expect(await served(service, { kind: 'tenant', tenantId: mallory.tenantId }, a)).toBe(a)
  })

  it('history - any spelling of the CID finds the swaps kept under the held spelling', async () => {
    const { service } = createTestService()
    const { b } = await publicCids(service)
    const { file } = await uploadFile(service, alice, 'v0 file', { network: 'public', cidVersion: 'v0' })
    await service.swaps.add(alice, 'public', file.cid, b)
    const v1 = parseCid(file.cid).toV1().toString()
    const history = await service.swaps.history(alice, 'public', v1)
    expect(history.map((swap) => [swap.cid, swap.mappedCid])).toEqual([[file.cid, b]])
    expect(await served(service, own, v1)).toBe(b)
  })

  it('remove - the original is served again; removing twice or as another tenant is NOT_FOUND', async () => {
    const { service } = createTestService()
    const { a, b } = await publicCids(service)
    await service.swaps.add(alice, 'public', a, b)
    await expect(service.swaps.remove(mallory, 'public', a)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    expect(await served(service, own, a)).toBe(b)
    await service.swaps.remove(alice, 'public', a)
    expect(await served(service, own, a)).toBe(a)
    await expect(service.swaps.remove(alice, 'public', a)).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })
})
