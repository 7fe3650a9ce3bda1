import { type Api, ApiError, type Query } from './client'
import type { Schemas } from './wire'

/** The admin API's wire shapes (`/admin/v1/*`), generated from the server's schemas as the rest are. */
export type AdminTenant = Schemas['AdminTenant']
export type AdminTenantSummary = Schemas['AdminTenantSummary']
export type AdminTenantDetail = Schemas['AdminTenantDetail']
export type AdminTenantAccount = Schemas['AdminTenantAccount']
export type AdminPinRequest = Schemas['AdminPinRequest']
export type AdminTotals = Schemas['AdminTotals']
export type TenantLimits = Schemas['TenantLimits']
export type DenyRule = Schemas['DenyRule']
export type PinState = AdminPinRequest['state']

/** Whom the server takes a token for: the console shows the operator area or the tenant views, never both. */
export type Role = 'operator' | 'tenant'

export const PIN_STATES: readonly PinState[] = ['queued', 'retrieving', 'pinned', 'failed']

/** The cheapest admin route: one tenant of the list. */
const PROBE = 'admin/v1/tenants'

/**
 * Whether the server takes this token as an operator's. The server decides, not the token: the
 * admin API answers 404 to every other credential, and a token's own `scope` claim proves nothing
 * (a tenant's token may claim `pinfold:operator`, and only one signed under the server's operator
 * key is one). Any other failure (the network, a 5xx) is thrown, so it is not mistaken for "tenant".
 */
export async function isOperator(api: Api): Promise<boolean> {
  try {
    await api.get(PROBE, { limit: 1 })
    return true
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return false
    throw error
  }
}

/**
 * The API as the operator area uses it: a 404 from an admin route is either a record that is not
 * there ("tenant not found") or the server no longer taking the token (it expired; admin routes
 * never answer 401). One probe tells which; in the second case the session ends.
 */
export function operatorApi(api: Api, onEnded: (message: string) => void): Api {
  const checked = async <T>(call: () => Promise<T>): Promise<T> => {
    try {
      return await call()
    } catch (error) {
      if (error instanceof ApiError && error.status === 404 && !(await isOperator(api).catch(() => true))) {
        onEnded('the server no longer takes this token as an operator token')
      }
      throw error
    }
  }
  return {
    ...api,
    get: <T>(path: string, query?: Query) => checked(() => api.get<T>(path, query)),
    send: <T>(method: Parameters<Api['send']>[0], path: string, body?: unknown) =>
      checked(() => api.send<T>(method, path, body)),
  }
}
