import type { DomainRecord } from '@pinfold/core'
import { readJsonObject } from '../body.js'
import { jsonBody, okData, okNull, ref } from '../openapi/schemas.js'
import { data } from '../responses.js'
import type { RequestContext, Route } from '../router.js'

/**
 * Custom gateway domains (shapes of Pinfold's own design, see the OpenAPI document):
 * - `POST /v3/gateways/domains` `{domain}` → the record, `status: "pending_ownership"`, with the
 *   TXT record to publish (`verification: {type: "TXT", name: "_service-verify.<domain>", value}`)
 *   and `expires_at`, when the claim lapses unless verified;
 * - `GET /v3/gateways/domains`, `GET|DELETE /v3/gateways/domains/{id}`;
 * - `POST /v3/gateways/domains/{id}/verify` looks the TXT record up now; `active` once it matches.
 */
export function domainToWire(domain: DomainRecord) {
  return {
    id: domain.id,
    domain: domain.domain,
    status: domain.status,
    verification: { type: 'TXT', name: `_service-verify.${domain.domain}`, value: domain.verificationToken },
    created_at: domain.createdAt.toISOString(),
    verified_at: domain.verifiedAt?.toISOString() ?? null,
    expires_at: domain.expiresAt?.toISOString() ?? null,
  }
}

async function create({ request, service, actor, ownHostnames }: RequestContext) {
  const body = await readJsonObject(request)
  return data(domainToWire(await service.domains.create(actor, body.domain, ownHostnames)), 201)
}

async function list({ service, actor }: RequestContext) {
  return data((await service.domains.list(actor)).map(domainToWire))
}

async function get({ params, service, actor }: RequestContext) {
  return data(domainToWire(await service.domains.get(actor, params.id!)))
}

async function verify({ params, service, actor }: RequestContext) {
  // the TXT lookup is the service's (`createFileService({ resolveTxt })`); without one, UNAVAILABLE
  return data(domainToWire(await service.domains.verify(actor, params.id!)))
}

async function remove({ params, service, actor }: RequestContext) {
  await service.domains.remove(actor, params.id!)
  return data(null)
}

export const domainRoutes: Route[] = [
  {
    method: 'POST',
    path: '/v3/gateways/domains',
    auth: 'org:gateways:write',
    summary: 'Register a custom gateway domain',
    openapi: {
      tags: ['Gateways'],
      requestBody: jsonBody(ref('DomainInput')),
      responses: okData(ref('Domain'), 'Registered', '201'),
    },
    handle: create,
  },
  {
    method: 'GET',
    path: '/v3/gateways/domains',
    auth: 'org:gateways:read',
    summary: 'List domains',
    openapi: { tags: ['Gateways'], responses: okData({ type: 'array', items: ref('Domain') }) },
    handle: list,
  },
  {
    method: 'GET',
    path: '/v3/gateways/domains/:id',
    auth: 'org:gateways:read',
    summary: 'Get a domain',
    openapi: { tags: ['Gateways'], responses: okData(ref('Domain')) },
    handle: get,
  },
  {
    method: 'POST',
    path: '/v3/gateways/domains/:id/verify',
    auth: 'org:gateways:write',
    summary: 'Check the domain TXT record now',
    openapi: { tags: ['Gateways'], responses: okData(ref('Domain')) },
    handle: verify,
  },
  {
    method: 'DELETE',
    path: '/v3/gateways/domains/:id',
    auth: 'org:gateways:write',
    summary: 'Remove a domain',
    openapi: { tags: ['Gateways'], responses: okNull('Removed') },
    handle: remove,
  },
]
