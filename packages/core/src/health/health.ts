import type { ServiceContext } from '../service/context.js'
import type { HealthOperations, HealthState } from './api.js'

/** What the readiness probe uses of the service. */
export type HealthSettings = Pick<ServiceContext, 'records' | 'blobs' | 'deny'>

/** A CID no store holds (the empty identity CID): reading it is the cheapest real round trip. */
const PROBE_CID = 'bafkqaaa'
const PROBE_BLOB = 'pinfold-readiness-probe/none'

export function createHealthOperations(ctx: HealthSettings): HealthOperations {
  const probe = async (run: () => Promise<unknown>): Promise<HealthState> => {
    try {
      await run()
      return 'ok'
    } catch {
      return 'failed'
    }
  }

  return {
    async check(options = {}) {
      const { signal } = options
      const [records, blobs] = await Promise.all([
        probe(() => ctx.records.files.getContent(PROBE_CID, { signal })),
        probe(() => ctx.blobs.head(PROBE_BLOB, { signal })),
      ])
      const lists = ctx.deny.lists
      // a list in force holds a rule (the operator's is there, empty, on every server) or failed to read
      const denylists = lists.lists
        .map((list) => ({
          list: list.name,
          rules: list.rules,
          state: lists.failure(list.name) === undefined ? ('ok' as const) : ('stale' as const),
        }))
        .filter((list) => list.rules > 0 || list.state === 'stale')
      return {
        ok: records === 'ok' && blobs === 'ok',
        checks: { records, blobs },
        ...(denylists.length > 0 && { denylists }),
      }
    },
  }
}
