import { okData, okNull } from '../../openapi/responses.js'
import { data } from '../../responses.js'
import { defineRoute } from '../../router.js'
import { DenyRule, DenyRuleCreate, DenyRuleIdParam, DenyRuleList, ruleToWire } from './wire.js'

const tags = ['Admin']

/**
 * The operator's own deny list (after every configured list, so its rules and `!` exceptions win),
 * part of the admin API: invisible (404) to anyone without an operator token. Rules are kept in the
 * record store (they outlive a restart and apply on every instance sharing it), each change in the
 * audit log.
 */
export const denyRuleRoutes = [
  defineRoute({
    method: 'GET',
    path: '/admin/v1/deny-rules',
    auth: 'operator',
    summary: 'The operator’s deny rules',
    tags,
    responses: okData(DenyRuleList, 'Oldest first'),
    async handle({ service, signal }) {
      return data({ rules: (await service.denylist.listRules({ signal })).map(ruleToWire) })
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/admin/v1/deny-rules',
    auth: 'operator',
    summary: 'Add a deny rule',
    tags,
    description:
      'It applies from the next request on every gateway, CAR, bitswap answer, routing answer and pin. A line that is not one valid rule is a 400 naming why.',
    request: { body: DenyRuleCreate },
    responses: okData(DenyRule, 'Added', '201'),
    async handle({ service, signal, operator }, { body }) {
      return data(ruleToWire(await service.denylist.addRule(body.rule, { signal, operator })), 201)
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/admin/v1/deny-rules/:ruleId',
    auth: 'operator',
    summary: 'Remove a deny rule',
    tags,
    description: 'What it refused is served again from the next request (unless another rule refuses it).',
    request: { params: { ruleId: DenyRuleIdParam } },
    responses: okNull('Removed'),
    async handle({ service, signal, operator }, { params }) {
      await service.denylist.removeRule(params.ruleId, { signal, operator })
      return data(null)
    },
  }),
]
