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
  'org:read',
  'org:write',
] as const

export type Scope = (typeof SCOPES)[number]

/**
 * Whether granted scopes allow a required one. A `…:write` scope implies its `…:read`, and the
 * broad `org:write` (which the spec requires for vectors) implies `org:read`.
 */
export function allows(granted: ReadonlySet<string>, required: Scope): boolean {
  if (granted.has(required)) return true
  return required.endsWith(':read') && granted.has(`${required.slice(0, -':read'.length)}:write`)
}
