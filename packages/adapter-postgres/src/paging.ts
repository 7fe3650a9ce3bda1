import type { Page, PageRequest } from '@pinfold/interface'
import type { Params } from './sql.js'

/**
 * The keyset condition and `ORDER BY … LIMIT … OFFSET` for a page ordered by `(created_at, id)`. One extra
 * row is fetched so {@link toPage} can tell whether more follow without a second query.
 */
export function keyset(page: PageRequest, params: Params): { condition?: string; orderAndLimit: string } {
  const direction = page.order === 'DESC' ? 'desc' : 'asc'
  const skip = page.offset ? ` offset ${params.add(page.offset)}` : ''
  const orderAndLimit = `order by created_at ${direction}, id ${direction} limit ${params.add(page.limit + 1)}${skip}`
  if (!page.after) return { orderAndLimit }
  // A row-value comparison, so the (tenant_id, network, created_at, id) index serves it directly.
  const comparison = page.order === 'DESC' ? '<' : '>'
  const createdAt = params.add(page.after.createdAt.toISOString())
  const id = params.add(page.after.id)
  return { condition: `(created_at, id) ${comparison} (${createdAt}::timestamptz, ${id}::uuid)`, orderAndLimit }
}

export function toPage<T>(items: T[], page: PageRequest): Page<T> {
  return { items: items.slice(0, page.limit), hasMore: items.length > page.limit }
}
