import type { GroupRecord } from '@pinfold/core'
import Type, { type Static } from 'typebox'
import { DateTime, named } from '../../schema.js'

/**
 * Pinata's legacy groups (`/groups…`, as `pinata-web3` 0.5.4 calls them): the public network's
 * groups of the v3 API (`/v3/groups/public…`), in the legacy shape, not wrapped in `data`.
 */

export const LegacyGroup = named(
  'LegacyGroup',
  Type.Object({
    id: Type.String(),
    user_id: Type.String({ description: 'The account (tenant) the group belongs to' }),
    name: Type.String(),
    createdAt: DateTime,
    updatedAt: DateTime,
  }),
)

export const LegacyGroupList = named('LegacyGroupList', Type.Array(LegacyGroup))

export const LegacyGroupInput = named('LegacyGroupInput', Type.Object({ name: Type.Optional(Type.String()) }))

/** The most CIDs one request adds to or removes from a group. */
export const MAX_GROUP_CIDS = 1000

export const GroupCids = named(
  'GroupCids',
  Type.Object({
    cids: Type.Array(Type.String(), {
      minItems: 1,
      maxItems: MAX_GROUP_CIDS,
      description: 'CIDs of the account’s public files',
    }),
  }),
)

export const LegacyGroupListQuery = Type.Object({
  nameContains: Type.Optional(Type.String({ description: 'Names containing this, any case' })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000, description: 'Groups to skip' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: 'Default 10' })),
})

export function legacyGroupToWire(group: GroupRecord): Static<typeof LegacyGroup> {
  const created = group.createdAt.toISOString()
  // Pinfold keeps no update time: a group's last change is reported as its creation
  return { id: group.id, user_id: group.tenantId, name: group.name, createdAt: created, updatedAt: created }
}
