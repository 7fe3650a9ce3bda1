import { jsonResponse } from '../../openapi/responses.js'
import { json } from '../../responses.js'
import { defineRoute } from '../../router.js'
import { onlyUnpinned, PinList, PinListQuery, pinListFilter, pinListRowToWire } from './wire.js'

/**
 * Pinata's legacy file listing: the tenant's public files, newest first, paged by offset — the
 * listing of `GET /v3/files/public` with the legacy filters.
 */
export const pinListRoutes = [
  defineRoute({
    method: 'GET',
    path: '/data/pinList',
    auth: 'org:files:read',
    summary: 'List pinned files (legacy)',
    tags: ['Files'],
    description:
      'Public files, newest first, paged by `pageLimit` and `pageOffset`; filters combine with AND. Answers `{rows}` (not wrapped in `data`).',
    request: { query: PinListQuery },
    responses: { '200': jsonResponse('Files (not wrapped in `data`)', PinList) },
    async handle({ service, actor, signal }, { query }) {
      const filter = pinListFilter(query) // checked even when nothing can match
      if (onlyUnpinned(query)) return json({ rows: [] })
      const { files } = await service.files.list(
        actor,
        'public',
        { ...filter, limit: query.pageLimit ?? 10, offset: query.pageOffset, order: 'DESC' },
        { signal },
      )
      return json({ rows: files.map(pinListRowToWire) })
    },
  }),
]
