import type { ApiKeyInfo } from '@pinfold/core'
import Type from 'typebox'
import { jsonResponse } from '../openapi/schemas.js'
import { json } from '../responses.js'
import { defineRoute } from '../router.js'
import { named } from '../schema.js'

const KeyPermissions = Type.Object(
  {
    admin: Type.Optional(Type.Boolean({ description: 'Every scope' })),
    endpoints: Type.Optional(
      Type.Object(
        {
          data: Type.Optional(Type.Record(Type.String(), Type.Boolean())),
          pinning: Type.Optional(Type.Record(Type.String(), Type.Boolean())),
        },
        { description: "Pinata's per-endpoint flags, each granting the Pinfold scope that covers it" },
      ),
    ),
    resources: Type.Optional(Type.Array(Type.String(), { description: 'Scope names, e.g. `org:files:read`' })),
  },
  { additionalProperties: true },
)

const KeyCreate = Type.Object({
  keyName: Type.String(),
  permissions: KeyPermissions,
  maxUses: Type.Optional(Type.Union([Type.Integer({ minimum: 1 }), Type.Null()])),
})

const CreatedKey = named(
  'CreatedApiKey',
  Type.Object({
    JWT: Type.String({ description: 'A bearer token of the key' }),
    pinata_api_key: Type.String(),
    pinata_api_secret: Type.String({ description: 'Shown once: only its hash is stored' }),
  }),
)

const KeyObject = named(
  'ApiKey',
  Type.Object({
    id: Type.String(),
    name: Type.String(),
    key: Type.String(),
    secret: Type.String({ description: 'Always empty: secrets are stored hashed and shown once, at creation' }),
    max_uses: Type.Union([Type.Integer(), Type.Null()]),
    uses: Type.Integer({ description: 'Counted for keys with max_uses only' }),
    user_id: Type.String(),
    scopes: Type.Record(Type.String(), Type.Unknown(), { description: 'The permissions the key was created with' }),
    revoked: Type.Boolean(),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  }),
)

const KeyListQuery = Type.Object({
  offset: Type.Optional(Type.Integer({ minimum: 0 })),
  name: Type.Optional(Type.String({ description: 'Names containing this, any case' })),
  revoked: Type.Optional(Type.Boolean()),
  limitedUse: Type.Optional(Type.Boolean({ description: 'Keys with (true) or without (false) a maxUses' })),
  exhausted: Type.Optional(Type.Boolean({ description: 'Keys that used up (true) or not (false) their maxUses' })),
})

function keyToWire(key: ApiKeyInfo) {
  return {
    id: key.id,
    name: key.name,
    key: key.key,
    secret: '',
    max_uses: key.maxUses,
    uses: key.uses,
    user_id: key.userId,
    scopes: key.permissions,
    revoked: key.revoked,
    createdAt: key.createdAt.toISOString(),
    updatedAt: key.updatedAt.toISOString(),
  }
}

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
      return json({ JWT: created.jwt, pinata_api_key: created.key.key, pinata_api_secret: created.secret })
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
      '200': jsonResponse('A page of keys', Type.Object({ keys: Type.Array(KeyObject), count: Type.Integer() })),
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
