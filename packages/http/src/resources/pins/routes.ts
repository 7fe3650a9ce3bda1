import { errorResponse, okData, okNull } from '../../openapi/responses.js'
import { data } from '../../responses.js'
import { defineRoute } from '../../router.js'
import { sortOrder } from '../../schema.js'
import { PinByCidInput, PinJob, PinQueue, pinJobToWire, QueueQuery, queueFilter } from './wire.js'

/**
 * Pin by CID, as Pinata's API and its SDK (`upload.public.cid()`, `files.public.queue()`,
 * `files.public.deletePinRequest()`) speak it. A request is in the queue until it is pinned, then
 * it is a file (with the request's id); failed requests stay listed with their status and reason.
 */

export const pinRoutes = [
  defineRoute({
    method: 'POST',
    path: '/v3/files/public/pin_by_cid',
    auth: 'org:files:write',
    summary: 'Pin by CID',
    tags: ['Pin by CID'],
    description:
      'Queues a request to fetch a DAG from the IPFS network (the configured trustless gateways, the given host nodes), verify every block and keep it as a public file whose id is the request id.',
    request: { body: PinByCidInput },
    responses: {
      ...okData(PinJob, 'Queued'),
      '429': errorResponse(
        "Pin queue full: the account's share of the queue is taken (`Retry-After` says when to retry)",
      ),
    },
    async handle({ service, actor, signal }, { body }) {
      const request = await service.pins.add(
        actor,
        {
          cid: body.cid,
          name: body.name,
          groupId: body.group_id,
          keyvalues: body.keyvalues,
          hostNodes: body.host_nodes ?? undefined,
        },
        { signal },
      )
      return data(pinJobToWire(request))
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v3/files/public/pin_by_cid',
    auth: 'org:files:read',
    summary: 'The pin-by-CID queue',
    tags: ['Pin by CID'],
    description: 'Requests not pinned yet: waiting (`prechecking`), running (`retrieving`) and failed ones.',
    request: { query: QueueQuery },
    responses: okData(PinQueue),
    async handle({ service, actor, signal }, { query }) {
      const filter = queueFilter(query.status)
      if (!filter) return data({ jobs: [], next_page_token: '' })
      const { requests, nextPageToken } = await service.pins.list(
        actor,
        {
          ...filter,
          cids: query.cid === undefined ? undefined : [query.cid],
          order: sortOrder(query.sort ?? query.order) ?? 'ASC',
          limit: query.limit,
          pageToken: query.pageToken,
        },
        { signal },
      )
      return data({ jobs: requests.map(pinJobToWire), next_page_token: nextPageToken })
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v3/files/public/pin_by_cid/:id',
    auth: 'org:files:write',
    summary: 'Delete a pin-by-CID request',
    tags: ['Pin by CID'],
    description: 'Removes a request that is not pinned yet and stops its job.',
    responses: okNull('Deleted'),
    async handle({ service, actor, signal }, { params }) {
      await service.pins.remove(actor, params.id, { signal })
      return data(null)
    },
  }),
]
