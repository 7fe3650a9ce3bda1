import {
  type CallOptions,
  DEPLOYMENT_TENANT_ID,
  type DenyRuleRecord,
  notFound,
  throwIfAborted,
} from '@pinfold/interface'
import { operatorEvent } from '../events/new-event.js'
import type { ServiceContext } from '../service/context.js'
import { type DenylistOperations, OPERATOR_LIST, type OperatorRule } from './api.js'
import { blockedHolderNotices } from './blocked-holders.js'
import type { HeldContentOperations } from './held-content-api.js'
import { ListIndex } from './list-index.js'
import { parseRuleInput, storedRule } from './rule-input.js'

export type DenylistSettings = Pick<ServiceContext, 'deny' | 'clock' | 'ids' | 'records' | 'changes' | 'denyHolderPage'>

/**
 * The operator's rules, kept in the record store (`records.denyRules`) so they outlive a restart
 * and every instance on the store applies them: each instance holds them in memory for matching
 * (a check is a synchronous lookup) and reloads them whole when the change feed says `deny-rules`
 * (another instance added or removed one) or may have lost a notice. Each rule's line is the store's
 * sequence number, never reused, so "later wins" holds and a refusal names the same line for its
 * lifetime. Each add and remove is in the audit log, in the same transaction.
 */
export function createDenylistOperations(
  ctx: DenylistSettings,
  heldContent?: Pick<HeldContentOperations, 'rulesAdded'>,
): DenylistOperations {
  let rules: OperatorRule[] = []
  // the last line installed (`undefined` before the first install, whose rules the scan's start covers)
  let lastLine: number | undefined
  // reloads may overlap (a notice arrives while one runs): only a later one replaces an earlier one
  let started = 0
  let installed = 0

  function install(records: readonly DenyRuleRecord[], ticket: number): void {
    if (ticket < installed) return
    installed = ticket
    const index = new ListIndex(OPERATOR_LIST)
    for (const record of records) {
      const parsed = storedRule(record.rule)
      if (parsed) index.add(parsed, record.line)
    }
    rules = records.map(toOperatorRule)
    ctx.deny.lists.replace(index)
    // lines are never reused, so the rules past the last one installed are the ones added since,
    // here or on another instance: what they block among held content is looked for
    const added = lastLine === undefined ? [] : records.filter((record) => record.line > lastLine!)
    lastLine = records.reduce((last, record) => Math.max(last, record.line), lastLine ?? 0)
    const parsed = added.map((record) => storedRule(record.rule)).filter((rule) => rule !== undefined)
    if (parsed.length > 0) heldContent?.rulesAdded(OPERATOR_LIST, parsed)
  }

  async function reload(options?: CallOptions): Promise<void> {
    const ticket = ++started
    install(await ctx.records.denyRules.listDenyRules(options), ticket)
  }

  const announce = () => ctx.changes?.publish('deny-rules').catch(() => {})
  ctx.changes?.subscribe((change) => {
    // a failed reload keeps the rules this instance has; the next notice (or restart) tries again
    if (change === 'deny-rules' || change === 'lost') reload().catch(() => {})
  })
  const loaded = reload().catch(() => {})

  return {
    check: (query, options) => ctx.deny.lists.check(query, options?.gatewayTenant),
    enforce: (query, site, options) => ctx.deny.enforce(query, site, options?.gatewayTenant),

    async load(options) {
      await loaded
      await reload(options)
    },

    async addRule(text, options) {
      throwIfAborted(options?.signal)
      const { rule, parsed } = parseRuleInput(text)
      const id = ctx.ids.recordId()
      const event = operatorEvent(options?.operator, DEPLOYMENT_TENANT_ID, {
        type: 'deny_rule.added',
        target: { kind: 'deny_rule', id },
        data: { rule },
      })
      // the first page of tenants whose stored content it blocks are told in the same transaction;
      // the reload below hands the rule to the held-content scan, which tells the rest
      const blockedNotices = await blockedHolderNotices(ctx, parsed, id, options?.operator, options?.signal)
      const stored = await ctx.records.denyRules.addDenyRule(
        { id, rule, createdAt: ctx.clock.now() },
        { signal: options?.signal, events: [event], blockedNotices },
      )
      await reload()
      await announce()
      return toOperatorRule(stored)
    },

    async listRules(options) {
      throwIfAborted(options?.signal)
      return (await ctx.records.denyRules.listDenyRules(options)).map(toOperatorRule)
    },

    async removeRule(id, options) {
      throwIfAborted(options?.signal)
      const event = operatorEvent(options?.operator, DEPLOYMENT_TENANT_ID, {
        type: 'deny_rule.removed',
        target: { kind: 'deny_rule', id },
        data: { rule: rules.find((rule) => rule.id === id)?.rule ?? null },
      })
      const removed = await ctx.records.denyRules.removeDenyRule(id, { signal: options?.signal, events: [event] })
      if (!removed) throw notFound('deny rule')
      await reload()
      await announce()
    },
  }
}

function toOperatorRule(record: DenyRuleRecord): OperatorRule {
  return { id: record.id, rule: record.rule, line: record.line, createdAt: record.createdAt.toISOString() }
}
