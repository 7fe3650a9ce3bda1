import {
  type CallOptions,
  DEPLOYMENT_TENANT_ID,
  type DenyRuleRecord,
  invalid,
  notFound,
  throwIfAborted,
} from '@pinfold/interface'
import { operatorEvent } from '../events/new-event.js'
import type { ServiceContext } from '../service/context.js'
import { type DenylistOperations, OPERATOR_LIST, type OperatorRule } from './api.js'
import { blockedHolderEvents } from './blocked-holders.js'
import { ListIndex } from './list-index.js'
import { parseRuleLine } from './parse-rule.js'

export type DenylistSettings = Pick<ServiceContext, 'deny' | 'clock' | 'ids' | 'records' | 'changes'>

/**
 * The operator's rules, kept in the record store (`records.denyRules`) so they outlive a restart
 * and every instance on the store applies them: each instance holds them in memory for matching
 * (a check is a synchronous lookup) and reloads them whole when the change feed says `deny-rules`
 * (another instance added or removed one) or may have lost a notice. Each rule's line is the store's
 * sequence number, never reused, so "later wins" holds and a refusal names the same line for its
 * lifetime. Each add and remove is in the audit log, in the same transaction.
 */
export function createDenylistOperations(ctx: DenylistSettings): DenylistOperations {
  let rules: OperatorRule[] = []
  // reloads may overlap (a notice arrives while one runs): only a later one replaces an earlier one
  let started = 0
  let installed = 0

  function install(records: readonly DenyRuleRecord[], ticket: number): void {
    if (ticket < installed) return
    installed = ticket
    const index = new ListIndex(OPERATOR_LIST)
    for (const record of records) {
      // stored rules were checked when added; one this version cannot read is left out, not fatal
      const parsed = safeParse(record.rule)
      if (parsed) index.add(parsed, record.line)
    }
    rules = records.map(toOperatorRule)
    ctx.deny.lists.replace(index)
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
    check: (query) => ctx.deny.lists.check(query),
    enforce: (query, site) => ctx.deny.enforce(query, site),

    async load(options) {
      await loaded
      await reload(options)
    },

    async addRule(text, options) {
      throwIfAborted(options?.signal)
      if (typeof text !== 'string' || /[\r\n]/.test(text)) throw invalid('a rule is one line of text')
      let parsed: ReturnType<typeof parseRuleLine>
      try {
        parsed = parseRuleLine(text)
      } catch (error) {
        throw invalid(`not a deny rule: ${(error as Error).message}`)
      }
      if (!parsed) throw invalid('not a deny rule: the line is empty or a comment')
      const id = ctx.ids.recordId()
      const rule = text.trim()
      const event = operatorEvent(options?.operator, DEPLOYMENT_TENANT_ID, {
        type: 'deny_rule.added',
        target: { kind: 'deny_rule', id },
        data: { rule },
      })
      // the tenants whose stored content it blocks are told in the same transaction
      const blocked = await blockedHolderEvents(ctx, parsed, id, options?.operator, options?.signal)
      const stored = await ctx.records.denyRules.addDenyRule(
        { id, rule, createdAt: ctx.clock.now() },
        { signal: options?.signal, events: [event, ...blocked] },
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

function safeParse(rule: string): ReturnType<typeof parseRuleLine> {
  try {
    return parseRuleLine(rule)
  } catch {
    return undefined
  }
}
