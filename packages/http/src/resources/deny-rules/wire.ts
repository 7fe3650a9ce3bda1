import type { OperatorRule } from '@pinfold/core'
import Type, { type Static } from 'typebox'
import { DateTime, named } from '../../schema.js'

export const DenyRule = named(
  'DenyRule',
  Type.Object({
    id: Type.String(),
    rule: Type.String({ description: 'The rule in the compact denylist format (IPIP-383)' }),
    line: Type.Integer({ description: 'Its line in the operator’s list: later rules win over earlier ones' }),
    created_at: DateTime,
  }),
)

export const DenyRuleList = Type.Object({ rules: Type.Array(DenyRule) })

export const DenyRuleCreate = Type.Object({
  rule: Type.String({
    minLength: 1,
    maxLength: 4096,
    description:
      'One line: `/ipfs/{cid}`, `/ipfs/{cid}/path`, `/ipfs/{cid}/path*`, `//{double hash}`, `!` to allow, with hints',
  }),
})

export const DenyRuleIdParam = Type.String({ minLength: 1, maxLength: 200 })

export function ruleToWire(rule: OperatorRule): Static<typeof DenyRule> {
  return { id: rule.id, rule: rule.rule, line: rule.line, created_at: rule.createdAt }
}
