import { invalid } from '@pinfold/interface'
import { parseRuleLine } from './parse-rule.js'
import type { DenyRule } from './rule.js'

/**
 * A rule given through the API (the operator's or a tenant's): exactly one line that is a rule,
 * else `INVALID_INPUT` saying why (a 400), before anything is stored.
 */
export function parseRuleInput(text: unknown): { rule: string; parsed: DenyRule } {
  if (typeof text !== 'string' || /[\r\n]/.test(text)) throw invalid('a rule is one line of text')
  let parsed: DenyRule | undefined
  try {
    parsed = parseRuleLine(text)
  } catch (error) {
    throw invalid(`not a deny rule: ${(error as Error).message}`)
  }
  if (!parsed) throw invalid('not a deny rule: the line is empty or a comment')
  return { rule: text.trim(), parsed }
}

/** A stored rule read back: one this version cannot read is left out, not fatal (it was checked when added). */
export function storedRule(rule: string): DenyRule | undefined {
  try {
    return parseRuleLine(rule)
  } catch {
    return undefined
  }
}
