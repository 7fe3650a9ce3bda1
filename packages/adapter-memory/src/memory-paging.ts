import type { Page, PageRequest } from '@pinfold/interface'

/** Keyset pagination over (createdAt, id), the same order the SQL adapters use, then `offset`. */
export function paginate<T extends { createdAt: Date; id: string }, R>(
  items: T[],
  page: PageRequest,
  copy: (item: T) => R,
): Page<R> {
  const direction = page.order === 'ASC' ? 1 : -1
  const compare = (a: { createdAt: Date; id: string }, b: { createdAt: Date; id: string }) =>
    (a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)) * direction
  const after = page.after
  const offset = page.offset ?? 0
  const sorted = items.filter((item) => !after || compare(item, after) > 0).sort(compare)
  return {
    items: sorted.slice(offset, offset + page.limit).map(copy),
    hasMore: sorted.length > offset + page.limit,
  }
}
