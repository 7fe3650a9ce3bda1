import { okData, okNull } from '../../openapi/responses.js'
import { data } from '../../responses.js'
import { defineRoute } from '../../router.js'
import { DenyRuleCreate, DenyRuleIdParam } from '../deny-rules/wire.js'
import { GatewayDenyRule, GatewayDenyRuleList, gatewayRuleToWire } from './wire.js'

const tags = ['Gateways']

/**
 * A tenant's own deny list, beside its gateway domains (`/v3/gateways/…`): the same rule syntax
 * as the operator's (`/admin/v1/deny-rules`), applied only on the tenant's own gateway hosts.
 * Another tenant's rule ids are 404, as every id of another tenant is.
 */
export const gatewayDenyRuleRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v3/gateways/deny_rules',
    auth: 'org:gateways:read',
    summary: 'Your gateways’ deny rules',
    tags,
    responses: okData(GatewayDenyRuleList, 'Oldest first'),
    async handle({ service, actor, signal }) {
      return data({ rules: (await service.gatewayDenyRules.listRules(actor, { signal })).map(gatewayRuleToWire) })
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v3/gateways/deny_rules',
    auth: 'org:gateways:write',
    summary: 'Add a deny rule to your gateways',
    tags,
    description:
      'A rule in the compact denylist format (IPIP-383), refusing content on your own gateway hosts only (your verified custom domains and dedicated gateway names), from the next request: 410 Gone, or the rule’s `gateway_status:NNN` hint, with an HTML page for browsers. It adds to the operator’s deny lists, which apply everywhere; a `!` rule only undoes your own earlier rules. It never affects another tenant’s gateways or the shared public gateway. A line that is not one valid rule is a 400 naming why; at most 10,000 rules.',
    request: { body: DenyRuleCreate },
    responses: okData(GatewayDenyRule, 'Added', '201'),
    async handle({ service, actor, signal }, { body }) {
      return data(gatewayRuleToWire(await service.gatewayDenyRules.addRule(actor, body.rule, { signal })), 201)
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v3/gateways/deny_rules/:id',
    auth: 'org:gateways:write',
    summary: 'Remove a deny rule from your gateways',
    tags,
    description: 'What it refused is served again on your gateways from the next request.',
    request: { params: { id: DenyRuleIdParam } },
    responses: okNull('Removed'),
    async handle({ service, actor, signal }, { params }) {
      await service.gatewayDenyRules.removeRule(actor, params.id, { signal })
      return data(null)
    },
  }),
]
