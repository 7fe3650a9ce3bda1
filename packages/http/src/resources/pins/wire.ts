import type { PinFailure, PinRequestFilter, PinRequestRecord } from '@pinfold/core'
import Type, { type Static } from 'typebox'
import { Keyvalues, named, ORDERS, pageQuery } from '../../schema.js'

/** Pinata's queue statuses (the SDK's `PinQueueQuery.status`, and `searching` from its docs). */
const STATUSES = [
  'prechecking',
  'searching',
  'retrieving',
  'expired',
  'backfilled',
  'over_free_limit',
  'over_max_size',
  'invalid_object',
  'bad_host_node',
] as const
type Status = (typeof STATUSES)[number]

const FAILURE_STATUS: Record<PinFailure, Status> = {
  not_found: 'expired',
  timed_out: 'expired',
  too_large: 'over_max_size',
  invalid_object: 'invalid_object',
}

function statusOf(request: PinRequestRecord): Status {
  if (request.state === 'failed' && request.failure) return FAILURE_STATUS[request.failure]
  return request.state === 'queued' ? 'prechecking' : 'retrieving'
}

/** The requests a status names; statuses Pinfold never gives (billing limits, backfills) name none. */
export function queueFilter(status: Status | undefined): PinRequestFilter | undefined {
  switch (status) {
    case undefined:
      return { states: ['queued', 'retrieving', 'failed'] }
    case 'prechecking':
      return { states: ['queued'] }
    case 'searching':
    case 'retrieving':
      return { states: ['retrieving'] }
    default: {
      const failures = (Object.keys(FAILURE_STATUS) as PinFailure[]).filter((f) => FAILURE_STATUS[f] === status)
      return failures.length > 0 ? { states: ['failed'], failures } : undefined
    }
  }
}

export const PinJob = named(
  'PinJob',
  Type.Object({
    id: Type.String(),
    cid: Type.String(),
    ipfs_pin_hash: Type.String({ description: 'The CID again, as the legacy pinJobs API named it' }),
    date_queued: Type.String({ format: 'date-time' }),
    name: Type.String(),
    status: Type.Enum([...STATUSES]),
    reason: Type.Union([Type.String(), Type.Null()], { description: 'Why a failed request failed; null otherwise' }),
    keyvalues: Type.Record(Type.String(), Type.String()),
    host_nodes: Type.Array(Type.String()),
    group_id: Type.Union([Type.String(), Type.Null()]),
    pin_policy: Type.Object({
      regions: Type.Array(Type.Object({ id: Type.String(), desiredReplicationCount: Type.Integer() })),
      version: Type.Integer(),
    }),
  }),
)

export function pinJobToWire(request: PinRequestRecord): Static<typeof PinJob> {
  return {
    id: request.id,
    cid: request.cid,
    ipfs_pin_hash: request.cid,
    date_queued: request.createdAt.toISOString(),
    name: request.name,
    status: statusOf(request),
    reason: request.reason,
    keyvalues: request.keyvalues,
    host_nodes: request.hostNodes,
    group_id: request.groupId,
    // one copy, in this deployment's own store: no replication regions to report
    pin_policy: { regions: [], version: 1 },
  }
}

export const PinByCidInput = named(
  'PinByCidInput',
  Type.Object({
    cid: Type.String({ description: 'Root CID of the DAG to fetch and keep' }),
    name: Type.Optional(Type.String({ description: 'Defaults to the CID' })),
    group_id: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    keyvalues: Type.Optional(Keyvalues),
    host_nodes: Type.Optional(
      Type.Union([Type.Array(Type.String()), Type.Null()], {
        description:
          'Multiaddrs of peers holding the content, dialled first by a bitswap source: at most 20, each at most 512 characters, starting with the host (`/ip4`, `/ip6`, `/dns`, `/dns4`, `/dns6`) and ending with the peer id (`/p2p/…`). Only public addresses are dialled, checked after name resolution, unless the operator allows private ones.',
      }),
    ),
  }),
)

export const QueueQuery = Type.Object({
  cid: Type.Optional(Type.String()),
  status: Type.Optional(Type.Enum([...STATUSES])),
  sort: Type.Optional(Type.Enum(ORDERS, { description: 'The SDK sends `ASC` or `DSC`; oldest first by default' })),
  order: Type.Optional(Type.Enum(ORDERS, { description: "The docs' spelling of `sort`" })),
  includesCount: Type.Optional(Type.Boolean({ description: 'Sent by the SDK; no count is returned' })),
  ...pageQuery,
})

export const PinQueue = named(
  'PinQueue',
  Type.Object({
    jobs: Type.Array(PinJob),
    next_page_token: Type.String({ description: 'Empty on the last page' }),
  }),
)
