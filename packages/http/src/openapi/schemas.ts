import Type, { type TSchema } from 'typebox'
import { NetworkSchema, named } from '../schema.js'
import type { OpenApiResponse } from './types.js'

/**
 * Response schemas shared by several routes (wire shapes of `wire.ts` and the feature handlers),
 * named so `/openapi.json` publishes each once under `components.schemas`. Names are snake_case as
 * on the wire. Request schemas live beside their routes, in `handlers/`.
 */

const DateTime = Type.String({ format: 'date-time' })
const Count = Type.Integer({ minimum: 0 })
const Hex = Type.String({ pattern: '^0x[0-9a-fA-F]+$' })

export const ErrorObject = named(
  'Error',
  Type.Object({ error: Type.String() }, { description: 'Every failure: a message written for the client' }),
)

export const FileObject = named(
  'File',
  Type.Object({
    id: Type.String(),
    name: Type.String(),
    cid: Type.String(),
    size: Count,
    number_of_files: Count,
    mime_type: Type.String(),
    group_id: Type.Union([Type.String(), Type.Null()]),
    keyvalues: Type.Record(Type.String(), Type.String(), { description: 'Free-form metadata' }),
    created_at: DateTime,
    expires_at: Type.Union([Type.Integer(), Type.Null()], {
      description: 'Unix seconds; null when the file never expires',
    }),
    network: NetworkSchema,
    vectorized: Type.Boolean(),
  }),
)

export const UploadedFile = named(
  'UploadedFile',
  Type.Intersect([FileObject, Type.Object({ user_id: Type.String(), is_duplicate: Type.Boolean() })]),
)

export const FileList = named(
  'FileList',
  Type.Object({
    files: Type.Array(FileObject),
    next_page_token: Type.String({ description: 'Empty on the last page' }),
  }),
)

export const LegacyPin = named(
  'LegacyPin',
  Type.Object({
    ID: Type.String(),
    Name: Type.String(),
    IpfsHash: Type.String(),
    PinSize: Count,
    Timestamp: DateTime,
    NumberOfFiles: Count,
    MimeType: Type.String(),
    GroupId: Type.Union([Type.String(), Type.Null()]),
    Keyvalues: Type.Record(Type.String(), Type.String()),
    isDuplicate: Type.Boolean(),
  }),
)

export const GroupObject = named(
  'Group',
  Type.Object({ id: Type.String(), name: Type.String(), is_public: Type.Boolean(), created_at: DateTime }),
)

export const CreatedGroup = named(
  'CreatedGroup',
  Type.Intersect([GroupObject, Type.Object({ public: Type.Boolean() })]),
)

export const GroupList = named(
  'GroupList',
  Type.Object({ groups: Type.Array(GroupObject), next_page_token: Type.String() }),
)

export const SwapObject = named('Swap', Type.Object({ mapped_cid: Type.String(), created_at: DateTime }))

export const SignatureObject = named('Signature', Type.Object({ cid: Type.String(), signature: Hex }))

export const GatewayPlugin = named(
  'GatewayPlugin',
  Type.Object({
    id: Type.Integer(),
    name: Type.String(),
    description: Type.String(),
    image: Type.String({
      format: 'uri',
      description: "The plugin's icon: an absolute URL (built-in plugins: a `data:` URL)",
    }),
    tags: Type.Array(Type.String()),
  }),
)

export const DomainObject = named(
  'Domain',
  Type.Object({
    id: Type.String(),
    domain: Type.String(),
    status: Type.Enum(['pending_ownership', 'active']),
    verification: Type.Union(
      [Type.Object({ type: Type.Literal('TXT'), name: Type.String(), value: Type.String() }), Type.Null()],
      { description: 'The TXT record proving ownership; null for a dedicated gateway name (active at once)' },
    ),
    created_at: DateTime,
    verified_at: Type.Union([DateTime, Type.Null()]),
    expires_at: Type.Union([DateTime, Type.Null()], {
      description: 'When a pending claim lapses unless verified; null once active',
    }),
  }),
)

export const PaymentRequirement = named(
  'PaymentRequirement',
  Type.Object({
    asset: Hex,
    pay_to: Hex,
    network: Type.String(),
    amount: Type.String({ description: 'Atomic units of the asset' }),
    description: Type.Optional(Type.String()),
  }),
)

export const PaymentInstruction = named(
  'PaymentInstruction',
  Type.Object({
    id: Type.String(),
    version: Type.Integer({ minimum: 1 }),
    payment_requirements: Type.Array(PaymentRequirement),
    name: Type.String(),
    description: Type.Optional(Type.String()),
    created_at: DateTime,
  }),
)

export const PaymentInstructionList = named(
  'PaymentInstructionList',
  Type.Object({
    payment_instructions: Type.Array(PaymentInstruction),
    next_page_token: Type.Optional(Type.String({ description: 'Absent on the last page' })),
  }),
)

export const PaymentInstructionCids = named(
  'PaymentInstructionCids',
  Type.Object({ cids: Type.Array(Type.String()), next_page_token: Type.Optional(Type.String()) }),
)

export const PaymentInstructionCid = named(
  'PaymentInstructionCid',
  Type.Object({ payment_instruction_id: Type.String(), cid: Type.String(), created_at: DateTime }),
)

export const PaymentRequired = named(
  'PaymentRequired',
  Type.Object(
    { x402Version: Type.Literal(1), error: Type.String(), accepts: Type.Array(Type.Object({})) },
    { description: 'x402 v1 body; the v2 requirements are in the base64 `PAYMENT-REQUIRED` header' },
  ),
)

export const VectorMutation = named(
  'VectorMutation',
  Type.Object({ success: Type.Literal(true), status: Type.Literal(true) }),
)

export const VectorQueryResult = named(
  'VectorQueryResult',
  Type.Object({
    count: Count,
    matches: Type.Array(Type.Object({ file_id: Type.String(), cid: Type.String(), score: Type.Number() })),
  }),
)

export const Health = named(
  'Health',
  Type.Object({
    status: Type.Literal('ok'),
    ipfs: Type.Optional(
      Type.Object(
        {
          peer_id: Type.String(),
          addrs: Type.Array(Type.String(), { description: 'Multiaddrs IPFS peers reach the node at' }),
          dht: Type.Optional(
            Type.Object({
              mode: Type.Enum(['client', 'server']),
              reprovide_runs: Type.Integer({ description: 'Runs announcing every public root, since start' }),
              provided: Type.Integer({ description: 'Roots announced by the last run' }),
              failed: Type.Integer({ description: 'Roots the last run failed to announce' }),
              withdrawn: Type.Integer({ description: 'Roots the last run stopped announcing (deleted, expired)' }),
              last_run_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
            }),
          ),
        },
        { description: 'The embedded IPFS node, when `PINFOLD_IPFS_LISTEN` starts one' },
      ),
    ),
  }),
)

export const Readiness = named(
  'Readiness',
  Type.Object({
    status: Type.Enum(['ok', 'unavailable']),
    checks: Type.Object({ records: Type.Enum(['ok', 'failed']), blobs: Type.Enum(['ok', 'failed']) }),
  }),
)

/** A signed URL (`{data: "https://…"}`). */
export const SignedUrl = Type.String({ format: 'uri' })

// ---------------------------------------------------------------------------------------------
// Responses
// ---------------------------------------------------------------------------------------------

const JSON_TYPE = 'application/json'

/** A JSON response. */
export function jsonResponse(description: string, schema: TSchema, headers?: OpenApiResponse['headers']) {
  return { description, content: { [JSON_TYPE]: { schema } }, ...(headers && { headers }) } satisfies OpenApiResponse
}

/** `{"data": …}`, the envelope of every v3 success. */
export const envelope = (schema: TSchema) => Type.Object({ data: schema })

/** `{200: {data: schema}}` */
export const okData = (schema: TSchema, description = 'OK', status = '200') => ({
  [status]: jsonResponse(description, envelope(schema)),
})

/** `{200: {data: null}}`, the answer of deletions and other mutations without a body. */
export const okNull = (description = 'Done') => okData(Type.Null(), description)

/** The `{error}` body, as used in responses. */
export const errorResponse = (description: string) => jsonResponse(description, ErrorObject)
