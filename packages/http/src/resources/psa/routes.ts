import { json } from '../../responses.js'
import type { Route } from '../../router.js'
import { defineRoute } from '../../router.js'
import {
  delegatesOf,
  failureResponse,
  PinsQuery,
  PsaPin,
  PsaPinResults,
  PsaPinStatus,
  pinSearch,
  pinStatusToWire,
  psaFailure,
} from './wire.js'

/**
 * The IPFS Pinning Service API v1.0.0, what Kubo's `ipfs pin remote`, IPFS Desktop and
 * `@helia/remote-pinning` speak: at `/psa/pins…` (Pinata's path: clients are configured with
 * `{host}/psa`) and at the root `/pins…` (the spec's own base path). It is a second face of pin by
 * CID: the same queue, workers, limits and fairness, the same bearer tokens and API keys; a
 * request's id is its `requestid`, and the file it makes has that id, so a pin made here is a file
 * of `/v3/files/public` and a request of `/v3/files/public/pin_by_cid`, and the other way round.
 */

const TAGS = ['Pinning Service API']

/** Every failure of these routes is the spec's `Failure`. */
const failures = {
  '400': psaFailure('Bad request: a field does not match the spec, or a CID Pinfold cannot keep'),
  '401': psaFailure('Access token is missing or invalid'),
  '403': psaFailure('The token lacks the scope'),
  '404': psaFailure('No such request for this account'),
  '409': psaFailure('INSUFFICIENT_FUNDS: the account’s storage or file limit leaves no room, or a payment was refused'),
  '429': psaFailure('Too many requests, or the account’s share of the pin queue is full (`Retry-After`)'),
  '4XX': psaFailure('Another refusal'),
  '5XX': psaFailure('Unexpected failure or unavailable dependency'),
}

const accepted = (description: string) => ({
  '202': { description, content: { 'application/json': { schema: PsaPinStatus } } },
})

function psaRoutes(prefix: '' | '/psa'): Route[] {
  const where = prefix ? 'at Pinata’s `/psa` path' : 'at the spec’s own base path'
  return [
    defineRoute({
      method: 'GET',
      path: `${prefix}/pins`,
      auth: 'org:files:read',
      summary: `List pin requests (${prefix || '/'})`,
      tags: TAGS,
      description: `The newest requests the filters match (${where}); with no filter, the 10 newest pinned ones. \`count\` is the total for the filter; the next page is \`before\` the oldest \`created\` of this one.`,
      request: { query: PinsQuery },
      responses: {
        '200': { description: 'PinResults', content: { 'application/json': { schema: PsaPinResults } } },
        ...failures,
      },
      answerError: failureResponse,
      async handle({ service, actor, signal, publicUrl, ipfsPeer }, { query }) {
        const { requests, count } = await service.pins.search(actor, pinSearch(query), { signal })
        const delegates = delegatesOf(publicUrl, ipfsPeer)
        return json({ count, results: requests.map((r) => pinStatusToWire(r, delegates)) })
      },
    }),
    defineRoute({
      method: 'POST',
      path: `${prefix}/pins`,
      auth: 'org:files:write',
      summary: `Add a pin request (${prefix || '/'})`,
      tags: TAGS,
      description: `Queues a request to fetch the DAG and keep it as a public file (${where}): a new \`requestid\` every time, even for a CID pinned before.`,
      request: { body: PsaPin },
      responses: { ...accepted('Queued'), ...failures },
      answerError: failureResponse,
      async handle({ service, actor, signal, publicUrl, ipfsPeer }, { body }) {
        const request = await service.pins.add(
          actor,
          { cid: body.cid, name: body.name, keyvalues: body.meta, hostNodes: body.origins },
          { signal },
        )
        return json(pinStatusToWire(request, delegatesOf(publicUrl, ipfsPeer)), 202)
      },
    }),
    defineRoute({
      method: 'GET',
      path: `${prefix}/pins/:requestid`,
      auth: 'org:files:read',
      summary: `Get a pin request (${prefix || '/'})`,
      tags: TAGS,
      description: `A request and its status (${where}).`,
      responses: {
        '200': { description: 'PinStatus', content: { 'application/json': { schema: PsaPinStatus } } },
        ...failures,
      },
      answerError: failureResponse,
      async handle({ service, actor, signal, publicUrl, ipfsPeer }, { params }) {
        const request = await service.pins.get(actor, params.requestid, { signal })
        return json(pinStatusToWire(request, delegatesOf(publicUrl, ipfsPeer)))
      },
    }),
    defineRoute({
      method: 'POST',
      path: `${prefix}/pins/:requestid`,
      auth: 'org:files:write',
      summary: `Replace a pin request (${prefix || '/'})`,
      tags: TAGS,
      description: `Replaces a request with a new one, atomically (${where}): the answer has a new \`requestid\` and the old one is gone. A pinned request’s file is kept until the new request is pinned or fails, so blocks the two DAGs share are never let go in between.`,
      request: { body: PsaPin },
      responses: { ...accepted('Queued in place of the old request'), ...failures },
      answerError: failureResponse,
      async handle({ service, actor, signal, publicUrl, ipfsPeer }, { params, body }) {
        const request = await service.pins.replace(
          actor,
          params.requestid,
          { cid: body.cid, name: body.name, keyvalues: body.meta, hostNodes: body.origins },
          { signal },
        )
        return json(pinStatusToWire(request, delegatesOf(publicUrl, ipfsPeer)), 202)
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: `${prefix}/pins/:requestid`,
      auth: 'org:files:write',
      summary: `Remove a pin request (${prefix || '/'})`,
      tags: TAGS,
      description: `Removes a request in any state (${where}): a pinned one’s file is deleted with it, a running one’s job stopped.`,
      responses: { '202': { description: 'Removed' }, ...failures },
      answerError: failureResponse,
      async handle({ service, actor, signal }, { params }) {
        await service.pins.unpin(actor, params.requestid, { signal })
        return new Response(null, { status: 202 })
      },
    }),
  ]
}

export const pinningServiceRoutes = [...psaRoutes('/psa'), ...psaRoutes('')]
