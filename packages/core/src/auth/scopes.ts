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
 * Scopes a broader one also grants. `org:write` is the organisation-wide write scope: the spec
 * asks only for a bearer token on payment instructions (endpoint 16), and a token holding every
 * scope the spec names (which never names `org:x402:*`) must be able to manage them.
 */
const COVERED_BY: Partial<Record<Scope, readonly Scope[]>> = {
  'org:x402:write': ['org:write'],
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
