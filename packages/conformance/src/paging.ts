import type { Page, PageRequest, SortOrder } from '@pinfold/interface'
import { expect } from 'vitest'

/** The order a store must return items in: by createdAt, ties broken by id (plain string order). */
export function sortByKey<T extends { createdAt: Date; id: string }>(items: T[], order: SortOrder): T[] {
  const sorted = [...items].sort(
    (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  )
  return order === 'ASC' ? sorted : sorted.reverse()
}

/** Walks every page with `after`, checking that `hasMore` is true exactly until the last page. */
export async function walkPages<T extends { createdAt: Date; id: string }>(
  list: (page: PageRequest) => Promise<Page<T>>,
  limit: number,
  order: SortOrder,
): Promise<T[]> {
  const seen: T[] = []
  let after: PageRequest['after']
  for (;;) {
    const page = await list({ limit, order, after })
    expect(page.items.length).toBeLessThanOrEqual(limit)
    seen.push(...page.items)
    const last = page.items.at(-1)
    if (!page.hasMore) return seen
    expect(page.items.length).toBe(limit)
    if (!last) throw new Error('hasMore on an empty page')
    after = { createdAt: last.createdAt, id: last.id }
  }
}

/** The ids of `items`, in order: what paging and filter assertions compare. */
export const ids = (items: { id: string }[]) => items.map((item) => item.id)
