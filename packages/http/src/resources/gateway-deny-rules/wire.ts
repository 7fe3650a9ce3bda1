import type { TenantDenyRule } from '@pinfold/core'
import Type, { type Static } from 'typebox'
import { DateTime, named } from '../../schema.js'

export const GatewayDenyRule = named(
  'GatewayDenyRule',
  Type.Object({
    id: Type.String(),
    rule: Type.String({ description: 'The rule in the compact denylist format (IPIP-383)' }),
    line: Type.Integer({ description: 'Its line in your gateways’ list (counted from 1): later rules win' }),
    created_at: DateTime,
  }),
)

export const GatewayDenyRuleList = Type.Object({ rules: Type.Array(GatewayDenyRule) })

export function gatewayRuleToWire(rule: TenantDenyRule): Static<typeof GatewayDenyRule> {
  return { id: rule.id, rule: rule.rule, line: rule.line, created_at: rule.createdAt }
}
