import Type from 'typebox'
import { jsonResponse } from '../../openapi/responses.js'
import { json } from '../../responses.js'
import { defineRoute } from '../../router.js'
import { CreatedKey, createdKeyToWire, KeyCreate, KeyList, KeyListQuery, keyToWire } from './wire.js'

/**
 * API keys at the paths and in the shapes of the official SDK (`keys.create`, `keys.list`,
 * `keys.revoke`): answers are not wrapped in `data`, as Pinata's are not. Managing keys needs the
 * organisation-wide scopes, and a key never grants more than its creator holds.
 */
export const keyRoutes = [
  defineRoute({
    method: 'POST',
    path: '/v3/pinata/keys',
    auth: 'org:write',
    summary: 'Create an API key',
    tags: ['API keys'],
    description:
      'Pinata permissions become Pinfold scopes: `admin` every scope; `endpoints.pinning.*` `org:files:write` (`pinJobs`: `org:files:read`); `endpoints.data.*` `org:files:read`; `resources` as named. Every authenticated request counts as one use of a key with `maxUses`.',
    request: { body: KeyCreate },
    responses: { '200': jsonResponse('The key: its JWT, public key and secret', CreatedKey) },
    async handle({ service, actor, signal }, { body }) {
      const created = await service.apiKeys.create(
        actor,
        { name: body.keyName, permissions: body.permissions, maxUses: body.maxUses },
        { signal },
      )
      return json(createdKeyToWire(created))
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v3/pinata/keys',
    auth: 'org:read',
    summary: 'List API keys',
    tags: ['API keys'],
    description: 'Newest first, 100 per page; `offset` skips keys. Filters combine with AND.',
    request: { query: KeyListQuery },
    responses: {
      '200': jsonResponse('A page of keys', KeyList),
    },
    async handle({ service, actor, signal }, { query }) {
      const { keys, total } = await service.apiKeys.list(actor, query, { signal })
      return json({ keys: keys.map(keyToWire), count: total })
    },
  }),
  defineRoute({
    method: 'PUT',
    path: '/v3/pinata/keys/:key',
    auth: 'org:write',
    summary: 'Revoke an API key',
    tags: ['API keys'],
    description:
      'By its public key (`pinata_api_key`). Every server sharing the record store refuses it within seconds.',
    responses: { '200': jsonResponse('Revoked', Type.Literal('Revoked')) },
    async handle({ service, actor, signal }, { params }) {
      await service.apiKeys.revoke(actor, params.key, { signal })
      return json('Revoked')
    },
  }),
]
