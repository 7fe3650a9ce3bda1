import { describe, expect, it } from 'vitest'
import { alice, createTestService, mallory, uploadFile, utf8 } from '../support/test-service.js'

/**
 * An operator rule added over content tenants already hold: each holding tenant gets one
 * `content.blocked` entry, naming its files and the rule, in the rule's own transaction; a rule
 * that blocks no held root (a path below it, an allow rule, a CID nobody holds) tells nobody.
 */
describe('deny lists: operator rules over held content', () => {
  const operator = { operatorId: 'ops-alice', requestId: 'req-rule' }

  it('addRule - each tenant holding the blocked root is told once, with its files and the rule', async () => {
    const { service } = createTestService()
    const bytes = utf8('a phishing page, held twice by one tenant and once by another')
    const first = await uploadFile(service, alice, bytes, { network: 'public' })
    const second = await uploadFile(service, alice, bytes, { network: 'private' })
    const theirs = await uploadFile(service, mallory, bytes, { network: 'public' })
    await uploadFile(service, alice, utf8('something else'), { network: 'public' })
    const cid = first.file.cid

    const added = await service.denylist.addRule(`/ipfs/${cid}`, { operator })
    const blocked = async (actor: typeof alice) =>
      (await service.events.list(actor, { types: ['content.blocked'] })).events
    const [mine, ...moreMine] = await blocked(alice)
    expect(moreMine).toEqual([])
    expect(mine).toMatchObject({
      tenantId: 'acme',
      actor: { kind: 'operator', id: 'ops-alice' },
      requestId: 'req-rule',
      target: { kind: 'cid', id: cid },
      data: { cid, list: 'operator', site: 'rule', ruleId: added.id, rule: `/ipfs/${cid}` },
    })
    expect([...(mine!.data.fileIds as string[])].sort()).toEqual([first.file.id, second.file.id].sort())
    expect(await blocked(mallory)).toMatchObject([{ tenantId: 'evil', data: { fileIds: [theirs.file.id] } }])
  })

  it('addRule - a path rule, an allow rule or a CID nobody holds tells no tenant', async () => {
    const { service } = createTestService()
    const { file } = await uploadFile(service, alice, utf8('held content'), { network: 'public' })
    await service.denylist.addRule(`/ipfs/${file.cid}/some/path`, { operator })
    await service.denylist.addRule(`!/ipfs/${file.cid}`, { operator })
    await service.denylist.addRule('/ipfs/bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy', { operator })
    expect((await service.events.list(alice, { types: ['content.blocked'] })).events).toEqual([])
  })
})
