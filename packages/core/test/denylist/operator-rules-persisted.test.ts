import { createMemoryChangeFeed, createMemoryRecordStore } from '@pinfold/adapter-memory'
import { base58btc } from 'multiformats/bases/base58'
import { CID } from 'multiformats/cid'
import { sha256 } from 'multiformats/hashes/sha2'
import { describe, expect, it } from 'vitest'
import { Denylists, type FileService, type RecordStore } from '../../src/index.js'
import { alice, createTestService, mallory, uploadFile, utf8 } from '../support/test-service.js'

const BLOCKED = CID.parse('bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy')
const query = { namespace: 'ipfs', cid: BLOCKED } as const
const operator = { operatorId: 'ops-bob', requestId: 'req-7' }

/** An instance of the service over shared stores, with deny lists of its own (as each server process has). */
function instance(records: RecordStore, changes = createMemoryChangeFeed()): FileService {
  const { service } = createTestService({ records, denylists: new Denylists(), gatewayCache: { changes } })
  return service
}

/** Waits until `condition` holds: a notice is delivered at once, the reload it starts takes a turn or two. */
async function eventually(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 5))
  expect(condition()).toBe(true)
}

/**
 * The operator's deny rules live in the record store: a rule outlives the service that added it
 * (a restart is a new service over the same store), another instance on the same store applies it
 * once the change feed's notice arrives, and each add and remove is in the audit log.
 */
describe('operator deny rules, persisted', () => {
  it('a rule survives a restart, applies on a second instance within a notice, and is removed everywhere', async () => {
    const records = createMemoryRecordStore()
    const changes = createMemoryChangeFeed()
    const first = instance(records, changes)
    const second = instance(records, changes)
    await Promise.all([first.denylist.load(), second.denylist.load()])
    expect(second.denylist.check(query)).toBeUndefined()

    const rule = await first.denylist.addRule(`/ipfs/${BLOCKED}`, { operator })
    expect(first.denylist.check(query)).toMatchObject({ list: 'operator', line: rule.line })
    await eventually(() => second.denylist.check(query) !== undefined)

    // a restart: a new service over the same store, with empty lists until it loads
    const restarted = instance(records)
    await restarted.denylist.load()
    expect(restarted.denylist.check(query)).toMatchObject({ list: 'operator', line: rule.line })
    expect(await restarted.denylist.listRules()).toEqual([rule])

    await second.denylist.removeRule(rule.id, { operator })
    expect(second.denylist.check(query)).toBeUndefined()
    await eventually(() => first.denylist.check(query) === undefined)

    const { items } = await records.events.listEvents({ tenantId: '' }, { limit: 10, order: 'asc' })
    expect(items.map((e) => [e.type, e.target.id, e.actor, e.requestId])).toEqual([
      ['deny_rule.added', rule.id, { kind: 'operator', id: 'ops-bob' }, 'req-7'],
      ['deny_rule.removed', rule.id, { kind: 'operator', id: 'ops-bob' }, 'req-7'],
    ])
  })

  it('a rule whose store write fails is not applied, and no entry is written', async () => {
    const records = createMemoryRecordStore()
    const failing: RecordStore = {
      ...records,
      denyRules: {
        ...records.denyRules,
        addDenyRule: async () => {
          throw Object.assign(new Error('the database is down'), { code: 'UNAVAILABLE' })
        },
      },
    }
    const { service } = createTestService({ records: failing, denylists: new Denylists() })
    await expect(service.denylist.addRule(`/ipfs/${BLOCKED}`)).rejects.toThrow('the database is down')
    expect(service.denylist.check(query)).toBeUndefined()
    expect((await records.events.listEvents({}, { limit: 10, order: 'asc' })).items).toEqual([])
  })
})

/**
 * An operator rule added over content tenants already hold: each holding tenant gets one
 * `content.blocked` entry, naming its files and the rule, in the rule's own transaction; a rule
 * that blocks no held root (a path below it, an allow rule, a CID nobody holds) tells nobody.
 */
describe('deny lists: operator rules over held content', () => {
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
      actor: { kind: 'operator', id: 'ops-bob' },
      requestId: 'req-7',
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

  it('a double-hashed rule: the scan of held roots tells the holder once; a pass cut short resumes after its last root; a finished one is not run again', async () => {
    const records = createMemoryRecordStore()
    const first = instance(records)
    await first.denylist.load()
    const cids: string[] = []
    for (const name of ['a', 'b', 'c', 'd']) {
      cids.push((await uploadFile(first, alice, utf8(`held ${name}`), { network: 'public' })).file.cid)
    }
    // the last root in the scan's order, so a pass cut after its first page has not reached it yet
    const target = [...cids].sort().at(-1)!
    const text = base58btc.baseEncode(CID.parse(target).multihash.bytes)
    const digest = await sha256.digest(new TextEncoder().encode(text))
    // one root per page, a long pause after each: the pass stops after its first page
    const stopFirst = await first.heldContent.start({ pageSize: 1, pauseMs: 60_000 })
    await first.denylist.addRule(`//${base58btc.baseEncode(digest.bytes)}`, { operator })
    await eventually(() => first.heldContent.status().rootsChecked === 1)
    await stopFirst() // a crash mid-pass: its position was saved after the page

    const restarted = instance(records)
    await restarted.denylist.load()
    const stop = await restarted.heldContent.start({ pageSize: 2, pauseMs: 0 })
    await restarted.heldContent.settled()
    await stop()
    expect(restarted.heldContent.status()).toMatchObject({ rootsChecked: 3, rootsBlocked: 1, noticesRecorded: 1 })
    const { events } = await restarted.events.list(alice, { types: ['content.blocked'] })
    expect(events).toMatchObject([
      {
        actor: { kind: 'system', id: 'denylist' },
        target: { kind: 'cid', id: target },
        data: { cid: target, list: 'operator', line: 1, site: 'scan' },
      },
    ])

    const again = instance(records)
    await again.denylist.load()
    const stopAgain = await again.heldContent.start({ pauseMs: 0 })
    await again.heldContent.settled()
    // a list read again whole with the same rules (a subscription answering 200 each time) makes no pass either
    again.heldContent.listReplaced('operator')
    await again.heldContent.settled()
    await stopAgain()
    expect(again.heldContent.status()).toMatchObject({ scanning: false, rootsChecked: 0, noticesRecorded: 0 })
    expect((await again.events.list(alice, { types: ['content.blocked'] })).events).toHaveLength(1)
  })
})
