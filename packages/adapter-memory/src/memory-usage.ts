import {
  asOtherUsage,
  type GatewayUsageCount,
  type GatewayUsageQuery,
  type GatewayUsageTotal,
  OTHER_USAGE_CID,
  throwIfAborted,
  type UsageRecordStore,
} from '@pinfold/interface'

type StoredCount = Omit<GatewayUsageCount, 'requests' | 'bytes'> & GatewayUsageTotal

const countKey = (c: GatewayUsageCount) => JSON.stringify([c.tenantId, c.day, c.cid, c.fileName, c.status])
const dayKey = (c: GatewayUsageCount) => JSON.stringify([c.tenantId, c.day])

/** Gateway totals in a Map keyed by (tenant, day, CID, file name, status). */
export function memoryUsageRecords(): UsageRecordStore {
  const counts = new Map<string, StoredCount>()
  /** Rows of each (tenant, day) besides its "other" row: the cap is checked without a scan. */
  const rowsOfDay = new Map<string, number>()
  const tick = (options?: { signal?: AbortSignal | undefined }) => {
    throwIfAborted(options?.signal)
    return Promise.resolve()
  }
  const matching = (tenantId: string, query: GatewayUsageQuery) =>
    [...counts.values()].filter(
      (c) =>
        c.tenantId === tenantId &&
        c.day >= query.from &&
        c.day <= query.to &&
        (query.cid === undefined || c.cid === query.cid) &&
        (query.fileName === undefined || c.fileName === query.fileName),
    )
  const sumBy = (rows: StoredCount[], keyOf: (c: StoredCount) => string) => {
    const sums = new Map<string, GatewayUsageTotal>()
    for (const row of rows) {
      const sum = sums.get(keyOf(row)) ?? { requests: 0, bytes: 0 }
      sum.requests += row.requests
      sum.bytes += row.bytes
      sums.set(keyOf(row), sum)
    }
    return sums
  }

  return {
    async addGatewayUsage(batch, { rowsPerTenantDay }, options) {
      await tick(options)
      for (const given of batch) {
        let count = given.cid === OTHER_USAGE_CID ? asOtherUsage(given) : given
        if (count.cid !== OTHER_USAGE_CID && !counts.has(countKey(count))) {
          const rows = rowsOfDay.get(dayKey(count)) ?? 0
          if (rows >= rowsPerTenantDay) count = asOtherUsage(count)
          else rowsOfDay.set(dayKey(count), rows + 1)
        }
        const key = countKey(count)
        const stored = counts.get(key)
        if (stored) {
          stored.requests += count.requests
          stored.bytes += count.bytes
        } else counts.set(key, { ...count })
      }
    },

    async rankGatewayUsage(tenantId, query, ranking, options) {
      await tick(options)
      const sums = sumBy(matching(tenantId, query), (c) => (ranking.by === 'cid' ? c.cid : c.fileName))
      const sign = ranking.order === 'asc' ? 1 : -1
      return [...sums]
        .map(([value, sum]) => ({ value, ...sum }))
        .sort((a, b) => sign * (a[ranking.sortBy] - b[ranking.sortBy]) || (a.value < b.value ? -1 : 1))
        .slice(0, ranking.limit)
    },

    async gatewayUsageByDay(tenantId, query, options) {
      await tick(options)
      return [...sumBy(matching(tenantId, query), (c) => c.day)]
        .map(([day, sum]) => ({ day, ...sum }))
        .sort((a, b) => (a.day < b.day ? -1 : 1))
    },
  }
}
