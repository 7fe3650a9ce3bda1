import type { DomainRecord } from '@pinfold/core'
import Type, { type Static } from 'typebox'
import { DateTime, named } from '../../schema.js'

export const DomainObject = named(
  'Domain',
  Type.Object({
    id: Type.String(),
    domain: Type.String(),
    status: Type.Enum(['pending_ownership', 'active']),
    verification: Type.Union(
      [Type.Object({ type: Type.Literal('TXT'), name: Type.String(), value: Type.String() }), Type.Null()],
      { description: 'The TXT record proving ownership; null for a dedicated gateway name (active at once)' },
    ),
    created_at: DateTime,
    verified_at: Type.Union([DateTime, Type.Null()]),
    expires_at: Type.Union([DateTime, Type.Null()], {
      description: 'When a pending claim lapses unless verified; null once active',
    }),
  }),
)

export function domainToWire(domain: DomainRecord): Static<typeof DomainObject> {
  return {
    id: domain.id,
    domain: domain.domain,
    status: domain.status,
    verification:
      domain.verificationToken === ''
        ? null
        : { type: 'TXT', name: `_service-verify.${domain.domain}`, value: domain.verificationToken },
    created_at: domain.createdAt.toISOString(),
    verified_at: domain.verifiedAt?.toISOString() ?? null,
    expires_at: domain.expiresAt?.toISOString() ?? null,
  }
}

export const DomainInput = named(
  'DomainInput',
  Type.Object({
    domain: Type.Optional(Type.String({ description: 'Host name, e.g. files.example.com' })),
    name: Type.Optional(
      Type.String({ description: 'A dedicated gateway: claims `{name}.{PINFOLD_GATEWAY_DOMAIN}`, active at once' }),
    ),
  }),
)
