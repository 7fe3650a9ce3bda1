import { invalid, notFound, throwIfAborted } from '@pinfold/interface'
import type { ServiceContext } from '../service/context.js'
import { type DenylistOperations, OPERATOR_LIST, type OperatorRule } from './api.js'
import { ListIndex } from './list-index.js'
import { parseRuleLine } from './parse-rule.js'

export type DenylistSettings = Pick<ServiceContext, 'deny' | 'clock' | 'ids'>

/**
 * The operator's rules, kept in this process: they apply at once and are lost on restart (lists
 * that must outlive a restart are files or subscriptions). Each rule's line is its sequence
 * number, never reused, so "later wins" holds and a refusal names the same line for its lifetime.
 */
export function createDenylistOperations(ctx: DenylistSettings): DenylistOperations {
  const rules: OperatorRule[] = []
  let sequence = 0

  function rebuild(): void {
    const index = new ListIndex(OPERATOR_LIST)
    for (const rule of rules) index.add(parseRuleLine(rule.rule)!, rule.line)
    ctx.deny.lists.replace(index)
  }

  return {
    check: (query) => ctx.deny.lists.check(query),
    enforce: (query, site) => ctx.deny.enforce(query, site),

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
      const rule: OperatorRule = {
        id: ctx.ids.recordId(),
        rule: text.trim(),
        line: ++sequence,
        createdAt: ctx.clock.now().toISOString(),
      }
      rules.push(rule)
      ctx.deny.lists.list(OPERATOR_LIST).add(parsed, rule.line)
      return { ...rule }
    },

    async listRules(options) {
      throwIfAborted(options?.signal)
      return rules.map((rule) => ({ ...rule }))
    },

    async removeRule(id, options) {
      throwIfAborted(options?.signal)
      const at = rules.findIndex((rule) => rule.id === id)
      if (at < 0) throw notFound('deny rule')
      rules.splice(at, 1)
      rebuild()
    },
  }
}
