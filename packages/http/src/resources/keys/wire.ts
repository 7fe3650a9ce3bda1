import type { ApiKeyInfo, CreatedApiKey } from '@pinfold/core'
import Type, { type Static } from 'typebox'
import { named } from '../../schema.js'

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

export const KeyCreate = Type.Object({
  keyName: Type.String(),
  permissions: KeyPermissions,
  maxUses: Type.Optional(Type.Union([Type.Integer({ minimum: 1 }), Type.Null()])),
})

export const CreatedKey = named(
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

/** A page of keys (`GET /v3/pinata/keys`). */
export const KeyList = Type.Object({ keys: Type.Array(KeyObject), count: Type.Integer() })

export const KeyListQuery = Type.Object({
  offset: Type.Optional(Type.Integer({ minimum: 0 })),
  name: Type.Optional(Type.String({ description: 'Names containing this, any case' })),
  revoked: Type.Optional(Type.Boolean()),
  limitedUse: Type.Optional(Type.Boolean({ description: 'Keys with (true) or without (false) a maxUses' })),
  exhausted: Type.Optional(Type.Boolean({ description: 'Keys that used up (true) or not (false) their maxUses' })),
})

export function keyToWire(key: ApiKeyInfo): Static<typeof KeyObject> {
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

export function createdKeyToWire(created: CreatedApiKey): Static<typeof CreatedKey> {
  return { JWT: created.jwt, pinata_api_key: created.key.key, pinata_api_secret: created.secret }
}
