import { invalid } from '@pinfold/interface'
import { SCOPES, type Scope } from './scopes.js'

/**
 * Pinata's per-endpoint key permissions (`permissions.endpoints`), each mapped to the narrowest
 * Pinfold scope that covers the endpoint: Pinfold's scopes are per resource and access, so a key
 * allowed `pinFileToIPFS` can also change and delete files, as `org:files:write` does.
 */
const ENDPOINT_SCOPES: Record<string, Record<string, Scope>> = {
  data: { pinList: 'org:files:read', userPinnedDataTotal: 'org:files:read' },
  pinning: {
    hashMetadata: 'org:files:write',
    hashPinPolicy: 'org:files:write',
    pinByHash: 'org:files:write',
    pinFileToIPFS: 'org:files:write',
    pinJSONToIPFS: 'org:files:write',
    pinJobs: 'org:files:read',
    unpin: 'org:files:write',
    userPinPolicy: 'org:files:write',
  },
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * The scopes a key with Pinata's `permissions` grants: `{admin: true}` every scope; otherwise the
 * union of `endpoints` (each `true` flag mapped by {@link ENDPOINT_SCOPES}) and `resources` (scope
 * names as they are). `INVALID_INPUT` for a shape Pinata would not accept, an unknown endpoint or
 * resource, or permissions that grant nothing.
 */
export function scopesOfPermissions(permissions: unknown): Scope[] {
  if (!isObject(permissions)) throw invalid('permissions must be an object ({admin: true} or {endpoints: {…}})')
  const { admin, endpoints, resources, ...unknown } = permissions
  const extra = Object.keys(unknown)[0]
  if (extra !== undefined) throw invalid(`permissions.${extra} is not a permission (admin, endpoints or resources)`)
  if (admin !== undefined && typeof admin !== 'boolean') throw invalid('permissions.admin must be a boolean')
  if (admin) return [...SCOPES]
  const granted = new Set<Scope>()
  if (endpoints !== undefined) {
    if (!isObject(endpoints)) throw invalid('permissions.endpoints must be an object')
    for (const [group, flags] of Object.entries(endpoints)) {
      const known = ENDPOINT_SCOPES[group]
      if (!known) throw invalid(`permissions.endpoints.${group} is not an endpoint group (data or pinning)`)
      if (!isObject(flags)) throw invalid(`permissions.endpoints.${group} must be an object`)
      for (const [endpoint, allowed] of Object.entries(flags)) {
        const scope = Object.hasOwn(known, endpoint) ? known[endpoint] : undefined
        if (!scope) throw invalid(`permissions.endpoints.${group}.${endpoint} is not a ${group} endpoint`)
        if (typeof allowed !== 'boolean') throw invalid(`permissions.endpoints.${group}.${endpoint} must be a boolean`)
        if (allowed) granted.add(scope)
      }
    }
  }
  if (resources !== undefined) {
    if (!Array.isArray(resources)) throw invalid('permissions.resources must be an array of scopes')
    for (const resource of resources) {
      if (!(SCOPES as readonly unknown[]).includes(resource)) {
        throw invalid(`permissions.resources: ${JSON.stringify(resource)} is not a scope (${SCOPES.join(', ')})`)
      }
      granted.add(resource as Scope)
    }
  }
  if (granted.size === 0) throw invalid('permissions grant nothing: give {admin: true}, endpoints or resources')
  return SCOPES.filter((scope) => granted.has(scope))
}
