import { type Api, ApiError } from './api/client'

/** Routes that other parts of Pinfold add; the console shows their views where the server has them. */
export interface Features {
  keys: boolean
  usage: boolean
  analytics: boolean
}

const PROBES: Record<keyof Features, string> = {
  keys: 'v3/pinata/keys',
  usage: 'v3/data/userPinnedDataTotal',
  analytics: 'v3/ipfs/gateway_analytics_time_series',
}

/**
 * One GET per optional route: a route the server lacks answers 404 "no such route". Anything else
 * (an answer, a 400 for a missing filter, a 403 for a missing scope) means the server has it.
 */
export async function detectFeatures(api: Api): Promise<Features> {
  const entries = await Promise.all(
    Object.entries(PROBES).map(async ([feature, path]) => {
      try {
        await api.get(path)
        return [feature, true] as const
      } catch (error) {
        return [feature, !(error instanceof ApiError && error.isMissingRoute)] as const
      }
    }),
  )
  return Object.fromEntries(entries) as unknown as Features
}
