import type { RecordStore } from '@pinfold/interface'
import { describe, expect, it } from 'vitest'
import { newEvent } from './event-records.js'
import { OTHER_TENANT, TENANT } from './fixtures.js'
import { freshHarnessPerTest } from './fresh-harness-per-test.js'
import type { RecordStoreHarness } from './record-store.js'

/**
 * Tenants' own deny rules (`DenyRuleRecordStore.*TenantDenyRule*`): each tenant's lines count from
 * 1 and are never given again, a tenant sees and removes only its own, and each add and remove
 * appends its audit event in the same step (a refused remove appends none).
 */
export function describeTenantDenyRuleRecords(name: string, create: () => Promise<RecordStoreHarness>): void {
  describe(`DenyRuleRecordStore tenants' rules conformance: ${name}`, () => {
    let store: RecordStore
    freshHarnessPerTest(create, (next) => {
      store = next.store
    })

    const add = (tenantId: string, id: string, rule = `/ipfs/${id}`) =>
      store.denyRules.addTenantDenyRule(
        { tenantId, id, rule, createdAt: new Date('2026-01-01T00:00:00Z') },
        { events: [newEvent('deny_rule.added', id, { tenantId, target: { kind: 'deny_rule', id } })] },
      )
    const events = async (tenantId: string) =>
      (await store.events.listEvents({ tenantId }, { limit: 100, order: 'asc' })).items.map(
        (e) => `${e.type} ${e.target.id}`,
      )

    it('add - lines count per tenant from 1; the record comes back as stored', async () => {
      expect(await add(TENANT, 'a1', '//abc')).toEqual({
        tenantId: TENANT,
        id: 'a1',
        rule: '//abc',
        line: 1,
        createdAt: new Date('2026-01-01T00:00:00Z'),
      })
      expect((await add(OTHER_TENANT, 'b1')).line).toBe(1)
      expect((await add(TENANT, 'a2')).line).toBe(2)
      await expect(add(OTHER_TENANT, 'a1')).rejects.toMatchObject({ code: 'CONFLICT' })
      // the operator's list is another one: its rules and lines are not the tenants'
      expect(await store.denyRules.listDenyRules()).toEqual([])
    })

    it('list - one tenant by line, or every tenant by tenant then line', async () => {
      await add(TENANT, 'a1')
      await add(OTHER_TENANT, 'b1')
      await add(TENANT, 'a2')
      expect((await store.denyRules.listTenantDenyRules(TENANT)).map((r) => r.id)).toEqual(['a1', 'a2'])
      expect((await store.denyRules.listTenantDenyRules(OTHER_TENANT)).map((r) => r.id)).toEqual(['b1'])
      const every = await store.denyRules.listTenantDenyRules(undefined)
      // TENANT sorts before OTHER_TENANT (tenant-a, tenant-b)
      expect(every.map((r) => [r.tenantId, r.line])).toEqual([
        [TENANT, 1],
        [TENANT, 2],
        [OTHER_TENANT, 1],
      ])
    })

    it("remove - only the tenant's own; a removed line is never given again; events ride with the change", async () => {
      await add(TENANT, 'a1')
      await add(TENANT, 'a2')
      const removed = (tenantId: string, id: string) =>
        store.denyRules.removeTenantDenyRule(tenantId, id, {
          events: [newEvent('deny_rule.removed', id, { tenantId, target: { kind: 'deny_rule', id } })],
        })
      expect(await removed(OTHER_TENANT, 'a2')).toBe(false)
      expect(await removed(TENANT, 'a2')).toBe(true)
      expect(await removed(TENANT, 'a2')).toBe(false)
      expect((await add(TENANT, 'a3')).line).toBe(3)
      expect((await store.denyRules.listTenantDenyRules(TENANT)).map((r) => r.id)).toEqual(['a1', 'a3'])
      expect(await events(TENANT)).toEqual([
        'deny_rule.added a1',
        'deny_rule.added a2',
        'deny_rule.removed a2',
        'deny_rule.added a3',
      ])
      expect(await events(OTHER_TENANT)).toEqual([])
    })
  })
}
