import { type FileService, invalid } from '@pinfold/core'
import Type, { type Static } from 'typebox'
import { okData, okNull } from '../../openapi/responses.js'
import { data } from '../../responses.js'
import { defineRoute } from '../../router.js'
import { DomainInput, DomainObject, domainToWire } from './wire.js'

/** The host a registration names: `domain`, or a dedicated gateway's `{name}.{gatewayDomain}`. */
function requestedDomain(service: FileService, body: Static<typeof DomainInput>): string {
  if ((body.domain === undefined) === (body.name === undefined)) throw invalid('give either domain or name')
  if (body.domain !== undefined) return body.domain
  const gatewayDomain = service.domains.gatewayDomain
  if (!gatewayDomain) throw invalid('dedicated gateways are off on this server (PINFOLD_GATEWAY_DOMAIN is unset)')
  if (!/^[a-z0-9-]+$/i.test(body.name!)) throw invalid('name must be one label: letters, digits and hyphens')
  return `${body.name}.${gatewayDomain}`
}

/**
 * Custom gateway domains and dedicated gateways (shapes of Pinfold's own design, see the OpenAPI document):
 * - `POST /v3/gateways/domains` `{domain}` → the record, `status: "pending_ownership"`, with the
 *   TXT record to publish (`verification: {type: "TXT", name: "_service-verify.<domain>", value}`)
 *   and `expires_at`, when the claim lapses unless verified;
 * - `POST /v3/gateways/domains` `{name}` (or a `{domain}` directly under `PINFOLD_GATEWAY_DOMAIN`)
 *   → a dedicated gateway `{name}.{PINFOLD_GATEWAY_DOMAIN}`, `active` at once, `verification: null`;
 * - `GET /v3/gateways/domains`, `GET|DELETE /v3/gateways/domains/{id}`;
 * - `POST /v3/gateways/domains/{id}/verify` looks the TXT record up now; `active` once it matches.
 */
export const domainRoutes = [
  defineRoute({
    method: 'POST',
    path: '/v3/gateways/domains',
    auth: 'org:gateways:write',
    summary: 'Register a custom gateway domain',
    tags: ['Gateways'],
    request: { body: DomainInput },
    responses: okData(DomainObject, 'Registered', '201'),
    async handle({ service, actor, ownHostnames, signal }, { body }) {
      const domain = requestedDomain(service, body)
      return data(domainToWire(await service.domains.create(actor, domain, ownHostnames, { signal })), 201)
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v3/gateways/domains',
    auth: 'org:gateways:read',
    summary: 'List domains',
    tags: ['Gateways'],
    responses: okData(Type.Array(DomainObject)),
    async handle({ service, actor, signal }) {
      return data((await service.domains.list(actor, { signal })).map(domainToWire))
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v3/gateways/domains/:id',
    auth: 'org:gateways:read',
    summary: 'Get a domain',
    tags: ['Gateways'],
    responses: okData(DomainObject),
    async handle({ service, actor, signal }, { params }) {
      return data(domainToWire(await service.domains.get(actor, params.id, { signal })))
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v3/gateways/domains/:id/verify',
    auth: 'org:gateways:write',
    summary: 'Check the domain TXT record now',
    tags: ['Gateways'],
    responses: okData(DomainObject),
    async handle({ service, actor, signal }, { params }) {
      // the TXT lookup is the service's (`createFileService({ resolveTxt })`); without one, UNAVAILABLE
      const domain = await service.domains.verify(actor, params.id, { signal })
      return data(domainToWire(domain))
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v3/gateways/domains/:id',
    auth: 'org:gateways:write',
    summary: 'Remove a domain',
    tags: ['Gateways'],
    responses: okNull('Removed'),
    async handle({ service, actor, signal }, { params }) {
      await service.domains.remove(actor, params.id, { signal })
      return data(null)
    },
  }),
]
