import type { NameMatch, PinRequestFilter, PinRequestRecord, PinRequestState } from '@pinfold/core'
import { gatewayMultiaddr, gatewayProviderId, invalid, isPinfoldError } from '@pinfold/core'
import Type, { type Static } from 'typebox'
import type { IpfsPeer } from '../../ipfs-peer.js'
import { jsonResponse } from '../../openapi/responses.js'
import { json, statusOf } from '../../responses.js'
import { named } from '../../schema.js'
import type { STATUS_BY_CODE } from '../../status.js'

/**
 * The IPFS Pinning Service API v1.0.0 (ipfs/pinning-services-api-spec) as wire shapes: its
 * `Pin`, `PinStatus`, `PinResults` and `Failure`, with the spec's own names, mapped from the
 * pin-by-CID queue's requests.
 */

const STATUSES = ['queued', 'pinning', 'pinned', 'failed'] as const
type Status = (typeof STATUSES)[number]

const STATUS_OF: Record<PinRequestState, Status> = {
  queued: 'queued',
  retrieving: 'pinning',
  pinned: 'pinned',
  failed: 'failed',
}
const STATE_OF: Record<Status, PinRequestState> = {
  queued: 'queued',
  pinning: 'retrieving',
  pinned: 'pinned',
  failed: 'failed',
}

const MAX_DELEGATES = 20
/** The spec's `maxItems` of the `cid` filter. */
const MAX_CIDS = 10

const StringMap = (description: string) => Type.Record(Type.String(), Type.String(), { description })

export const PsaPin = named(
  'PsaPin',
  Type.Object(
    {
      cid: Type.String({ description: 'Root CID of the DAG to fetch and keep' }),
      name: Type.Optional(
        Type.String({ minLength: 1, maxLength: 255, description: 'Defaults to the CID; matched by `?name=`' }),
      ),
      origins: Type.Optional(
        Type.Array(Type.String(), {
          maxItems: 20,
          uniqueItems: true,
          description:
            'Multiaddrs of peers holding the content, under the rules of `host_nodes`: starting with the host (`/ip4`, `/ip6`, `/dns`, `/dns4`, `/dns6`), ending with the peer id (`/p2p/…`), at most 512 characters; only public addresses are dialled, checked after name resolution, unless the operator allows private ones.',
        }),
      ),
      meta: Type.Optional(
        StringMap(
          'Kept as the file’s keyvalues (at most 100 pairs, keys up to 255 characters, values up to 2048) and matched by `?meta=`',
        ),
      ),
    },
    { description: 'The Pinning Service API’s `Pin`' },
  ),
)

export const PsaPinStatus = named(
  'PsaPinStatus',
  Type.Object(
    {
      requestid: Type.String({
        description: 'The request’s id: also the id of the file it makes (`/v3/files/public/{id}`)',
      }),
      status: Type.Enum([...STATUSES]),
      created: Type.String({
        format: 'date-time',
        description: 'When the request was queued; unique within a process',
      }),
      pin: PsaPin,
      delegates: Type.Array(Type.String(), {
        minItems: 1,
        maxItems: MAX_DELEGATES,
        uniqueItems: true,
        description:
          'The embedded IPFS node’s multiaddrs (with `/p2p/<peer id>`) when the server runs one; otherwise the API host’s trustless gateway as the routing API names it (`/dns/<host>/tcp/443/https/p2p/<identity id of its URL>`): no libp2p peer, where the pinned blocks are served over HTTP',
      }),
      info: StringMap(
        '`status_details` always (why a failed request failed, the attempt under way, the file a pinned one is); `dag_size` (bytes) once pinned',
      ),
    },
    { description: 'The Pinning Service API’s `PinStatus`' },
  ),
)

export const PsaPinResults = named(
  'PsaPinResults',
  Type.Object({
    count: Type.Integer({ minimum: 0, description: 'How many requests the filter matches in all' }),
    results: Type.Array(PsaPinStatus, { maxItems: 1000 }),
  }),
)

export const PsaFailure = named(
  'PsaFailure',
  Type.Object(
    {
      error: Type.Object({
        reason: Type.String({
          description:
            'BAD_REQUEST, UNAUTHORIZED, FORBIDDEN, NOT_FOUND, INSUFFICIENT_FUNDS (409: reserved for refusals to spend: a payment the deployment requires), RATE_LIMITED (429, with Retry-After: too many requests, or the account’s share of the pin queue is full), SERVICE_UNAVAILABLE, INTERNAL_SERVER_ERROR, …',
        }),
        details: Type.Optional(Type.String({ description: 'What went wrong, for people' })),
      }),
    },
    { description: 'The Pinning Service API’s `Failure`: every failure of its routes' },
  ),
)

/** A failure of the Pinning Service API's routes, for the OpenAPI document. */
export const psaFailure = (description: string) => jsonResponse(description, PsaFailure)

export const PinsQuery = Type.Object({
  cid: Type.Optional(
    Type.String({ description: 'Comma-separated CIDs, 1 to 10: requests for any of them (`?cid=Qm1,bafy2`)' }),
  ),
  name: Type.Optional(Type.String({ maxLength: 255, description: 'Requests whose name matches (see `match`)' })),
  match: Type.Optional(
    Type.Enum(['exact', 'iexact', 'partial', 'ipartial'], { description: 'How `name` matches; default `exact`' }),
  ),
  status: Type.Optional(
    Type.String({
      description:
        'Comma-separated statuses (`queued`, `pinning`, `pinned`, `failed`). Default: `pinned` when no other filter is given, every status when one is',
    }),
  ),
  before: Type.Optional(Type.String({ format: 'date-time', description: 'Created strictly before (paging)' })),
  after: Type.Optional(Type.String({ format: 'date-time', description: 'Created strictly after' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: 'Default 10' })),
  meta: Type.Optional(
    Type.String({
      description: 'A JSON object of strings (`?meta={"app_id":"…"}`): requests whose meta holds every pair',
    }),
  ),
})

/** The listing a `GET /pins` query asks for, in core's terms. */
export function pinSearch(query: Static<typeof PinsQuery>): PinRequestFilter & { limit: number } {
  const cids = query.cid === undefined ? undefined : splitList(query.cid, 'cid', MAX_CIDS)
  const statuses = query.status === undefined ? undefined : splitList(query.status, 'status')
  for (const status of statuses ?? []) {
    if (!(STATUSES as readonly string[]).includes(status))
      throw invalid(`status must list ${STATUSES.join(', ')}; ${JSON.stringify(status.slice(0, 50))} is none of them`)
  }
  const filtered = [query.cid, query.name, query.status, query.before, query.after, query.meta].some(
    (given) => given !== undefined,
  )
  // the spec: "when no filter is provided, only successful pins are returned"
  const states = statuses
    ? [...new Set(statuses.map((s) => STATE_OF[s as Status]))]
    : filtered
      ? undefined
      : ['pinned' as const]
  return {
    limit: query.limit ?? 10,
    states,
    cids,
    name: query.name === undefined ? undefined : { text: query.name, match: (query.match ?? 'exact') as NameMatch },
    before: query.before === undefined ? undefined : instant(query.before, 'before'),
    after: query.after === undefined ? undefined : instant(query.after, 'after'),
    keyvalues: query.meta === undefined ? undefined : metaFilter(query.meta),
  }
}

/** `?meta=` as the spec's `PinMeta`: a JSON object of strings. */
function metaFilter(text: string): Record<string, string> {
  const meta = parseJson(text)
  if (
    typeof meta !== 'object' ||
    meta === null ||
    Array.isArray(meta) ||
    !Object.values(meta).every((v) => typeof v === 'string')
  ) {
    throw invalid('meta must be a JSON object of string values, such as {"app_id":"…"}')
  }
  return meta as Record<string, string>
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

function splitList(text: string, field: string, maxItems?: number): string[] {
  const items = text.split(',').map((item) => item.trim())
  if (items.some((item) => item === '')) throw invalid(`${field} must be a comma-separated list without empty items`)
  if (maxItems !== undefined && items.length > maxItems) throw invalid(`${field} may list at most ${maxItems} items`)
  return [...new Set(items)]
}

function instant(text: string, field: string): Date {
  const date = new Date(text)
  if (Number.isNaN(date.getTime())) throw invalid(`${field} must be an RFC 3339 timestamp`)
  return date
}

/**
 * Who fetches new data: the embedded IPFS node's addresses, each ending with its peer id, when
 * the server runs one. Without one, the deployment's trustless gateway as the routing API names it
 * (its URL as a multiaddr, with the identity peer id Helia gives HTTP gateways): the spec wants at
 * least one delegate, and Kubo's `pin remote add` fails on a delegate without `/p2p/` (it only
 * logs a delegate it cannot connect to, as Helia does).
 */
export function delegatesOf(publicUrl: string, peer: IpfsPeer | undefined): string[] {
  if (!peer || peer.addrs.length === 0) return [`${gatewayMultiaddr(publicUrl)}/p2p/${gatewayProviderId(publicUrl)}`]
  const suffix = `/p2p/${peer.peerId}`
  const addrs = peer.addrs.map((addr) => (addr.endsWith(suffix) ? addr : `${addr}${suffix}`))
  return [...new Set(addrs)].slice(0, MAX_DELEGATES)
}

export function pinStatusToWire(request: PinRequestRecord, delegates: string[]): Static<typeof PsaPinStatus> {
  const info: Record<string, string> = { status_details: statusDetails(request) }
  if (request.dagSize !== null) info.dag_size = String(request.dagSize)
  return {
    requestid: request.id,
    status: STATUS_OF[request.state],
    created: request.createdAt.toISOString(),
    pin: { cid: request.cid, name: request.name, origins: request.hostNodes, meta: request.keyvalues },
    delegates,
    info,
  }
}

function statusDetails(request: PinRequestRecord): string {
  switch (request.state) {
    case 'queued':
      return request.attempts === 0
        ? 'waiting for a worker'
        : `waiting for a worker again: ${request.attempts} attempt(s) cut short (a process stopped)`
    case 'retrieving':
      return `fetching and verifying the DAG (attempt ${request.attempts})`
    case 'pinned':
      return `pinned: kept as public file ${request.id}`
    case 'failed':
      return `${request.failure}: ${request.reason ?? ''}`
  }
}

/** Machine-readable reasons, by error code. */
const REASONS = {
  INVALID_INPUT: 'BAD_REQUEST',
  UNAUTHENTICATED: 'UNAUTHORIZED',
  PAYMENT_REQUIRED: 'INSUFFICIENT_FUNDS',
  FORBIDDEN: 'FORBIDDEN',
  QUOTA_EXCEEDED: 'INSUFFICIENT_FUNDS',
  NOT_FOUND: 'NOT_FOUND',
  CONFLICT: 'CONFLICT',
  REQUEST_TIMEOUT: 'REQUEST_TIMEOUT',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  UNPROCESSABLE: 'UNPROCESSABLE',
  RANGE_NOT_SATISFIABLE: 'RANGE_NOT_SATISFIABLE',
  RATE_LIMITED: 'RATE_LIMITED',
  BLOCKED: 'CONTENT_BLOCKED',
  ABORTED: 'ABORTED',
  STORAGE_DENIED: 'INTERNAL_SERVER_ERROR',
  INTERNAL: 'INTERNAL_SERVER_ERROR',
  UNAVAILABLE: 'SERVICE_UNAVAILABLE',
  NOT_IMPLEMENTED: 'NOT_IMPLEMENTED',
} as const satisfies Record<keyof typeof STATUS_BY_CODE, string>

/**
 * Any failure of these routes as the spec's `Failure`. Statuses are the API's own, except that 409
 * is the spec's INSUFFICIENT_FUNDS alone ("credit/quota exceeded"): a payment refusal or a tenant's
 * exhausted limits are a 409 here, and a conflict (which these routes never cause) a 400.
 */
export function failureResponse(error: unknown): Response {
  if (!isPinfoldError(error)) return failure('INTERNAL_SERVER_ERROR', 'internal server error', 500)
  const status =
    error.code === 'PAYMENT_REQUIRED' || error.code === 'QUOTA_EXCEEDED'
      ? 409
      : error.code === 'CONFLICT'
        ? 400
        : statusOf(error)
  const details = status >= 500 && error.code !== 'UNAVAILABLE' ? 'internal server error' : error.message
  const retryAfter = error.details?.retryAfterSeconds
  const headers = typeof retryAfter === 'number' ? { 'retry-after': String(Math.ceil(retryAfter)) } : undefined
  return failure(REASONS[error.code], details, status, headers)
}

function failure(reason: string, details: string, status: number, headers?: Record<string, string>): Response {
  return json({ error: { reason, details } }, status, headers)
}
