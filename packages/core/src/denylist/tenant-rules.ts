import { type CallOptions, notFound, PinfoldError, type TenantDenyRuleRecord, throwIfAborted } from '@pinfold/interface'
import { tenantEvent } from '../events/new-event.js'
import { ListIndex } from './list-index.js'
import type { DenylistSettings } from './operator-rules.js'
import { parseRuleInput, storedRule } from './rule-input.js'
import { type GatewayDenyRuleOperations, MAX_TENANT_RULES, TENANT_LIST, type TenantDenyRule } from './tenant-api.js'

/**
 * Tenants' own deny rules, kept in the record store (`records.denyRules.*TenantDenyRule*`) and in
 * memory on every instance as one `ListIndex` per tenant (`Denylists.replaceTenantLists`). A change
 * publishes `deny-rules` on the change feed, the notice the operator's rules use: every instance
 * reloads both, and whatever keeps answers derived from the deny rules (a response cache) drops
 * them on the same notice.
 */
export function createGatewayDenyRuleOperations(ctx: DenylistSettings): GatewayDenyRuleOperations {
  // reloads may overlap (a notice arrives while one runs): only a later one replaces an earlier one
  let started = 0
  let installed = 0

  function install(records: readonly TenantDenyRuleRecord[], ticket: number): void {
    if (ticket < installed) return
    installed = ticket
    const lists = new Map<string, ListIndex>()
    for (const record of records) {
      const parsed = storedRule(record.rule)
      if (!parsed) continue
      const list = lists.get(record.tenantId) ?? new ListIndex(TENANT_LIST)
      lists.set(record.tenantId, list)
      list.add(parsed, record.line)
    }
    ctx.deny.lists.replaceTenantLists(lists)
  }

  async function reload(options?: CallOptions): Promise<void> {
    const ticket = ++started
    install(await ctx.records.denyRules.listTenantDenyRules(undefined, options), ticket)
  }

  const announce = () => ctx.changes?.publish('deny-rules').catch(() => {})
  ctx.changes?.subscribe((change) => {
    // a failed reload keeps the rules this instance has; the next notice (or restart) tries again
    if (change === 'deny-rules' || change === 'lost') reload().catch(() => {})
  })
  const loaded = reload().catch(() => {})

  return {
    async load(options) {
      await loaded
      await reload(options)
    },

    async addRule(actor, text, options) {
      throwIfAborted(options?.signal)
      const { rule } = parseRuleInput(text)
      const held = await ctx.records.denyRules.listTenantDenyRules(actor.tenantId, options)
      if (held.length >= MAX_TENANT_RULES) {
        throw new PinfoldError('QUOTA_EXCEEDED', `a tenant keeps at most ${MAX_TENANT_RULES} deny rules`)
      }
      const id = ctx.ids.recordId()
      const event = tenantEvent(actor, { type: 'deny_rule.added', target: { kind: 'deny_rule', id }, data: { rule } })
      const stored = await ctx.records.denyRules.addTenantDenyRule(
        { tenantId: actor.tenantId, id, rule, createdAt: ctx.clock.now() },
        { signal: options?.signal, events: [event] },
      )
      await reload()
      await announce()
      return toTenantRule(stored)
    },

    async listRules(actor, options) {
      throwIfAborted(options?.signal)
      return (await ctx.records.denyRules.listTenantDenyRules(actor.tenantId, options)).map(toTenantRule)
    },

    async removeRule(actor, id, options) {
      throwIfAborted(options?.signal)
      const held = await ctx.records.denyRules.listTenantDenyRules(actor.tenantId, options)
      const rule = held.find((record) => record.id === id)
      if (!rule) throw notFound('deny rule')
      const event = tenantEvent(actor, {
        type: 'deny_rule.removed',
        target: { kind: 'deny_rule', id },
        data: { rule: rule.rule },
      })
      const removed = await ctx.records.denyRules.removeTenantDenyRule(actor.tenantId, id, {
        signal: options?.signal,
        events: [event],
      })
      if (!removed) throw notFound('deny rule')
      await reload()
      await announce()
    },
  }
}

function toTenantRule(record: TenantDenyRuleRecord): TenantDenyRule {
  return { id: record.id, rule: record.rule, line: record.line, createdAt: record.createdAt.toISOString() }
}
