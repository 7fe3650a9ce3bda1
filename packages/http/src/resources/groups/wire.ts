import type { GroupRecord } from '@pinfold/core'
import Type, { type Static } from 'typebox'
import { DateTime, named, pageQuery } from '../../schema.js'

export const GroupObject = named(
  'Group',
  Type.Object({ id: Type.String(), name: Type.String(), is_public: Type.Boolean(), created_at: DateTime }),
)

/** The spec names visibility `public` in this one response; `is_public` is kept for clients typed on the rest. */
export const CreatedGroup = named(
  'CreatedGroup',
  Type.Intersect([GroupObject, Type.Object({ public: Type.Boolean() })]),
)

export const GroupList = named(
  'GroupList',
  Type.Object({ groups: Type.Array(GroupObject), next_page_token: Type.String() }),
)

/** JSON booleans; `"true"` and `"false"` are accepted too. */
const Visibility = Type.Union([Type.Boolean(), Type.Enum(['true', 'false'])], { errorMessage: 'must be true or false' })
export const isTrue = (value: boolean | 'true' | 'false' | undefined) =>
  value === undefined ? undefined : String(value) === 'true'

export const GroupInput = named(
  'GroupInput',
  Type.Object({ name: Type.Optional(Type.String()), is_public: Type.Optional(Visibility) }),
)

/** An update names something to change. */
export const GroupUpdate = named(
  'GroupUpdate',
  Type.Object(
    { name: Type.Optional(Type.String()), is_public: Type.Optional(Visibility) },
    {
      anyOf: [{ required: ['name'] }, { required: ['is_public'] }],
      errorMessage: 'has nothing to update: give name or is_public',
    },
  ),
)

export const GroupListQuery = Type.Object({
  name: Type.Optional(Type.String({ description: 'Name prefix' })),
  isPublic: Type.Optional(Type.Boolean()),
  is_public: Type.Optional(Type.Boolean({ description: 'Alias of `isPublic`' })),
  ...pageQuery,
})

export function groupToWire(group: GroupRecord): Static<typeof GroupObject> {
  return { id: group.id, name: group.name, is_public: group.isPublic, created_at: group.createdAt.toISOString() }
}

export function createdGroupToWire(group: GroupRecord): Static<typeof CreatedGroup> {
  return { ...groupToWire(group), public: group.isPublic }
}
