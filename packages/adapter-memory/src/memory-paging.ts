import type { Page, PageRequest } from '@pinfold/interface'

/** Keyset pagination over (createdAt, id), the same order the SQL adapters use. */
export function paginate<T extends { createdAt: Date; id: string }, R>(
  items: T[],
  page: PageRequest,
  copy: (item: T) => R,
): Page<R> {
  const direction = page.order === 'ASC' ? 1 : -1
  const compare = (a: { createdAt: Date; id: string }, b: { createdAt: Date; id: string }) =>
    (a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)) * direction
  const after = page.after
  const sorted = items.filter((item) => !after || compare(item, after) > 0).sort(compare)
  return { items: sorted.slice(0, page.limit).map(copy), hasMore: sorted.length > page.limit }
}
