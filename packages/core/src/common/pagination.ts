import type { PageCursor, SortOrder } from '@pinfold/interface'
import { invalid } from '@pinfold/interface'

export const DEFAULT_PAGE_LIMIT = 10
export const MAX_PAGE_LIMIT = 1000
/**
 * The deepest `offset` a listing accepts (the legacy API's `pageOffset`): a store walks every item
 * it skips, so the cost of one request stays bounded. Deeper pages are reached by page token.
 */
export const MAX_PAGE_OFFSET = 100_000

export interface PageQuery {
  limit?: number | undefined
  order?: SortOrder | undefined
  pageToken?: string | undefined
  /** Items to skip before the page (after `pageToken`'s position when both are given). */
  offset?: number | undefined
}

/**
 * Page tokens are opaque to clients: base64url of the last item's (createdAt, id). Clients loop
 * until the token is empty (the official SDK's `.all()` never stops otherwise).
 */
export function encodePageToken(cursor: PageCursor): string {
  return Buffer.from(JSON.stringify([cursor.createdAt.toISOString(), cursor.id])).toString('base64url')
}

/**
 * The only time spelling {@link encodePageToken} writes for years 1 to 9999. JavaScript dates reach
 * ±275,760 and year 0, which PostgreSQL refuses ("out of range", a 500 before this check), so a
 * time outside that span cannot come from a record and is refused here, for every store alike.
 */
const ISSUED_TIME = /^(?!0000)\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

export function decodePageToken(token: string): PageCursor {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'))
    if (
      Array.isArray(parsed) &&
      parsed.length === 2 &&
      typeof parsed[0] === 'string' &&
      typeof parsed[1] === 'string' &&
      ISSUED_TIME.test(parsed[0])
    ) {
      const createdAt = new Date(parsed[0])
      // a round trip refuses what the pattern lets through but no date is (month 13, February 30)
      if (!Number.isNaN(createdAt.getTime()) && createdAt.toISOString() === parsed[0]) {
        return { createdAt, id: parsed[1] }
      }
    }
  } catch {}
  throw invalid('pageToken is not a token this server issued')
}

export function resolvePage(query: PageQuery) {
  const limit = query.limit ?? DEFAULT_PAGE_LIMIT
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_LIMIT) {
    throw invalid(`limit must be an integer from 1 to ${MAX_PAGE_LIMIT}`)
  }
  const offset = query.offset ?? 0
  if (!Number.isInteger(offset) || offset < 0 || offset > MAX_PAGE_OFFSET) {
    throw invalid(`offset must be an integer from 0 to ${MAX_PAGE_OFFSET}`)
  }
  return {
    limit,
    order: query.order ?? 'DESC',
    after: query.pageToken ? decodePageToken(query.pageToken) : undefined,
    ...(offset > 0 && { offset }),
  }
}

/** The token for the page after `items`, or `""` on the last page. */
export function nextPageToken(items: { createdAt: Date; id: string }[], hasMore: boolean): string {
  const last = items.at(-1)
  return hasMore && last ? encodePageToken(last) : ''
}
