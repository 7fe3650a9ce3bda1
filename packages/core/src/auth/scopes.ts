/** Every scope Pinfold knows. Scope names follow the spec (`org:files:write`, …). */
export const SCOPES = [
  'org:files:read',
  'org:files:write',
  'org:groups:read',
  'org:groups:write',
  'org:gateways:read',
  'org:gateways:write',
  'org:x402:read',
  'org:x402:write',
  'org:analytics:read',
  'org:analytics:write',
  'org:read',
  'org:write',
] as const

export type Scope = (typeof SCOPES)[number]

/**
 * Scopes a broader one also grants. `org:write` is the organisation-wide write scope, and it
 * covers every write scope Pinfold added beyond the spec's (`org:gateways:write` for domains,
 * `org:x402:write` for payment instructions, `org:analytics:write`): a token holding every scope
 * the spec names must be able to do everything the spec and the SDK offer, creating an admin key
 * (every scope) included. Pinfold's own scopes only narrow a token; they never gate a capability
 * the spec's scopes give.
 */
const COVERED_BY: Partial<Record<Scope, readonly Scope[]>> = {
  'org:gateways:write': ['org:write'],
  'org:x402:write': ['org:write'],
  'org:analytics:write': ['org:write'],
  // and `org:read` the organisation-wide read scope (so `org:write` too)
  'org:analytics:read': ['org:read'],
}

/**
 * Whether granted scopes allow a required one. A `…:write` scope implies its `…:read` (so the
 * broad `org:write`, which the spec requires for vectors, implies `org:read`), and a scope is
 * granted by any scope listed as covering it in {@link COVERED_BY}.
 */
export function allows(granted: ReadonlySet<string>, required: Scope): boolean {
  if (granted.has(required)) return true
  if (COVERED_BY[required]?.some((broader) => allows(granted, broader))) return true
  if (!required.endsWith(':read')) return false
  return allows(granted, `${required.slice(0, -':read'.length)}:write` as Scope)
}
