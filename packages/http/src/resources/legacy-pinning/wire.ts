import type { PinRequestRecord } from '@pinfold/core'
import Type, { type Static } from 'typebox'
import { KeyvaluePatch, Keyvalues, named, ORDERS } from '../../schema.js'
import { PinJob, QueueQuery } from '../pins/wire.js'

/**
 * Pinata's legacy pinning API (`/pinning/…`) as `pinata-web3` 0.5.4 and `@pinata/sdk` 2.1.0 send
 * it: camelCase `pinata…` wrappers, answers not wrapped in `data`.
 */

const PinataMetadata = Type.Object({
  name: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'Empty or null: the default name' })),
  keyvalues: Type.Optional(Type.Union([Keyvalues, Type.Null()])),
})

const CidVersion = Type.Optional(Type.Union([Type.Enum([0, 1, '0', '1']), Type.Null()], { description: 'Default 0' }))
const GroupId = Type.Optional(Type.Union([Type.String(), Type.Null()]))

/** The largest `pinJSONToIPFS` body, Pinata's documented limit (the JSON is parsed, so it is held whole). */
export const MAX_PIN_JSON_BYTES = 10 * 1024 * 1024

export const PinJsonInput = named(
  'PinJsonInput',
  Type.Object({
    pinataContent: Type.Unknown({ description: 'The JSON to pin (any JSON value)' }),
    pinataMetadata: Type.Optional(PinataMetadata),
    pinataOptions: Type.Optional(Type.Object({ cidVersion: CidVersion, groupId: GroupId })),
  }),
)

export const PinByHashInput = named(
  'PinByHashInput',
  Type.Object({
    hashToPin: Type.String({ description: 'The CID to fetch from the IPFS network and keep' }),
    pinataMetadata: Type.Optional(PinataMetadata),
    pinataOptions: Type.Optional(
      Type.Object({
        hostNodes: Type.Optional(
          Type.Union([Type.Array(Type.String()), Type.Literal(''), Type.Null()], {
            description: 'Multiaddrs of peers holding the content (`""`, as the SDK sends for none, is none)',
          }),
        ),
        groupId: GroupId,
      }),
    ),
  }),
)

export const PinByHashAnswer = named(
  'PinByHashAnswer',
  Type.Object({
    id: Type.String({ description: 'The request id (the file it becomes has it too)' }),
    ipfsHash: Type.String(),
    status: Type.Enum(['prechecking', 'retrieving']),
    name: Type.String(),
  }),
)

export function pinByHashToWire(request: PinRequestRecord): Static<typeof PinByHashAnswer> {
  return {
    id: request.id,
    ipfsHash: request.cid,
    status: request.state === 'queued' ? 'prechecking' : 'retrieving',
    name: request.name,
  }
}

export const HashMetadataInput = named(
  'HashMetadataInput',
  Type.Object({
    ipfsPinHash: Type.String({ description: 'The CID whose files change' }),
    name: Type.Optional(Type.String()),
    keyvalues: Type.Optional(
      Type.Union([KeyvaluePatch, Type.Null()], {
        description: 'Merged into the current ones; a null value removes its key',
      }),
    ),
  }),
)

/** The deepest `offset` of `pinJobs`: a queue is walked by page token up to it. */
export const MAX_PIN_JOBS_OFFSET = 10_000

export const PinJobsQuery = Type.Object({
  ipfs_pin_hash: Type.Optional(Type.String({ description: 'Only this CID' })),
  status: QueueQuery.properties.status,
  sort: Type.Optional(Type.Enum(ORDERS, { description: 'By date queued; `ASC` by default' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: 'Default 5' })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_PIN_JOBS_OFFSET, description: 'Jobs to skip' })),
  includesCount: Type.Optional(Type.Boolean({ description: 'Sent by the SDK; no count is returned' })),
})

export const PinJobRows = named('PinJobRows', Type.Object({ rows: Type.Array(PinJob) }))
