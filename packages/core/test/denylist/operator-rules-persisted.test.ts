import { createMemoryChangeFeed, createMemoryRecordStore } from '@pinfold/adapter-memory'
import { CID } from 'multiformats/cid'
import { describe, expect, it } from 'vitest'
import { Denylists, type FileService, type RecordStore } from '../../src/index.js'
import { createTestService } from '../support/test-service.js'

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
