import type { JsonSchema, OpenApiParameter, OpenApiResponse, RouteOpenApi } from './types.js'

/**
 * Reusable schemas of the wire shapes (`wire.ts` and the feature handlers), published under
 * `components.schemas` of `/openapi.json`. Names are snake_case as on the wire.
 */

const string: JsonSchema = { type: 'string' }
const dateTime: JsonSchema = { type: 'string', format: 'date-time' }
const integer: JsonSchema = { type: 'integer', minimum: 0 }
const object = (properties: Record<string, JsonSchema>, required = Object.keys(properties)): JsonSchema => ({
  type: 'object',
  properties,
  required,
})

export const ref = (name: keyof typeof componentSchemas): JsonSchema => ({ $ref: `#/components/schemas/${name}` })

const networkSchema: JsonSchema = { type: 'string', enum: ['public', 'private'] }
const keyvalues: JsonSchema = { type: 'object', additionalProperties: true, description: 'Free-form metadata' }

const file = object({
  id: string,
  name: string,
  cid: string,
  size: integer,
  number_of_files: integer,
  mime_type: string,
  group_id: { type: ['string', 'null'] },
  keyvalues,
  created_at: dateTime,
  expires_at: { type: ['integer', 'null'], description: 'Unix seconds; null when the file never expires' },
  network: networkSchema,
  vectorized: { type: 'boolean' },
})

const group = object({ id: string, name: string, is_public: { type: 'boolean' }, created_at: dateTime })

const paymentRequirement = object(
  {
    asset: { type: 'string', pattern: '^0x[0-9a-fA-F]+$' },
    pay_to: { type: 'string', pattern: '^0x[0-9a-fA-F]+$' },
    network: string,
    amount: { type: 'string', description: 'Atomic units of the asset' },
    description: string,
  },
  ['asset', 'pay_to', 'network', 'amount'],
)

export const componentSchemas = {
  Error: { ...object({ error: string }), description: 'Every failure: a message written for the client' },
  Network: networkSchema,
  File: file,
  UploadedFile: {
    allOf: [{ $ref: '#/components/schemas/File' }, object({ user_id: string, is_duplicate: { type: 'boolean' } })],
  },
  FileList: object({
    files: { type: 'array', items: { $ref: '#/components/schemas/File' } },
    next_page_token: { type: 'string', description: 'Empty on the last page' },
  }),
  LegacyPin: object({
    ID: string,
    Name: string,
    IpfsHash: string,
    PinSize: integer,
    Timestamp: dateTime,
    NumberOfFiles: integer,
    MimeType: string,
    GroupId: { type: ['string', 'null'] },
    Keyvalues: keyvalues,
    isDuplicate: { type: 'boolean' },
  }),
  Group: group,
  CreatedGroup: {
    allOf: [{ $ref: '#/components/schemas/Group' }, object({ public: { type: 'boolean' } })],
  },
  GroupList: object({
    groups: { type: 'array', items: { $ref: '#/components/schemas/Group' } },
    next_page_token: string,
  }),
  Swap: object({ mapped_cid: string, created_at: dateTime }),
  Signature: object({ cid: string, signature: { type: 'string', pattern: '^0x[0-9a-fA-F]+$' } }),
  GatewayPlugin: object({
    id: { type: 'integer' },
    name: string,
    description: string,
    image: string,
    tags: { type: 'array', items: string },
  }),
  Domain: object({
    id: string,
    domain: string,
    status: { type: 'string', enum: ['pending_ownership', 'active'] },
    verification: object({ type: { const: 'TXT' }, name: string, value: string }),
    created_at: dateTime,
    verified_at: { type: ['string', 'null'], format: 'date-time' },
    expires_at: {
      type: ['string', 'null'],
      format: 'date-time',
      description: 'When a pending claim lapses unless verified; null once active',
    },
  }),
  PaymentRequirement: paymentRequirement,
  PaymentInstruction: object(
    {
      id: string,
      version: { type: 'integer', minimum: 1 },
      payment_requirements: { type: 'array', items: { $ref: '#/components/schemas/PaymentRequirement' } },
      name: string,
      description: string,
      created_at: dateTime,
    },
    ['id', 'version', 'payment_requirements', 'name', 'created_at'],
  ),
  PaymentInstructionList: object(
    {
      payment_instructions: { type: 'array', items: { $ref: '#/components/schemas/PaymentInstruction' } },
      next_page_token: { type: 'string', description: 'Absent on the last page' },
    },
    ['payment_instructions'],
  ),
  PaymentInstructionCids: object({ cids: { type: 'array', items: string }, next_page_token: string }, ['cids']),
  PaymentInstructionCid: object({ payment_instruction_id: string, cid: string, created_at: dateTime }),
  PaymentRequired: {
    ...object({ x402Version: { const: 1 }, error: string, accepts: { type: 'array', items: { type: 'object' } } }),
    description: 'x402 v1 body; the v2 requirements are in the base64 `PAYMENT-REQUIRED` header',
  },
  VectorMutation: object({ success: { const: true }, status: { const: true } }),
  VectorQueryResult: object({
    count: integer,
    matches: {
      type: 'array',
      items: object({ file_id: string, cid: string, score: { type: 'number' } }),
    },
  }),
  Health: object({ status: { const: 'ok' } }),
  // request bodies
  FileUpload: {
    ...object(
      {
        file: {
          type: 'string',
          contentMediaType: 'application/octet-stream',
          description:
            'One part per file; several parts (with paths as file names) make a folder; a CAR with `car=true`',
        },
        network: networkSchema,
        name: string,
        group_id: string,
        keyvalues: { type: 'string', description: 'JSON-encoded object' },
        cid_version: { type: 'string', enum: ['v0', 'v1', 'unixfs-v1-2025'] },
        expires_at: { type: 'string', pattern: '^\\d+$', description: 'Unix seconds' },
        car: { type: 'string', enum: ['true', 'false'] },
      },
      ['file'],
    ),
  },
  FileUpdate: object(
    {
      name: string,
      keyvalues,
      expires_at: { type: ['integer', 'string', 'null'], description: 'Unix seconds; null or 0 clears' },
    },
    [],
  ),
  GroupInput: object({ name: string, is_public: { type: 'boolean' } }, []),
  SwapInput: object({ swap_cid: string }),
  SignatureInput: object({
    signature: { type: 'string', pattern: '^0x[0-9a-fA-F]+$' },
    address: { type: 'string', pattern: '^0x[0-9a-fA-F]{40}$' },
  }),
  DownloadLinkRequest: object(
    {
      url: { type: 'string', description: 'A URL containing `/files/<cid>`' },
      expires: { type: 'integer', minimum: 1, description: 'Seconds the link stays valid' },
      date: { type: 'integer', description: 'Unix seconds the link starts at; default now' },
      method: { const: 'GET' },
    },
    ['url', 'expires'],
  ),
  UploadSignRequest: object(
    {
      expires: { type: 'integer', description: 'Seconds the URL stays valid' },
      date: { type: 'integer' },
      max_file_size: { type: 'integer' },
      allow_mime_types: { type: 'array', items: string },
      group_id: string,
      keyvalues,
      filename: string,
      network: networkSchema,
    },
    ['expires'],
  ),
  DomainInput: object({ domain: { type: 'string', description: 'Host name, e.g. files.example.com' } }),
  PaymentInstructionInput: object(
    {
      name: string,
      description: string,
      payment_requirements: { type: 'array', items: { $ref: '#/components/schemas/PaymentRequirement' } },
    },
    [],
  ),
  VectorQuery: object({ text: string, limit: { type: 'integer', minimum: 1 } }, ['text']),
  Readiness: object({
    status: { type: 'string', enum: ['ok', 'unavailable'] },
    checks: {
      type: 'object',
      properties: {
        records: { type: 'string', enum: ['ok', 'failed'] },
        blobs: { type: 'string', enum: ['ok', 'failed'] },
      },
      required: ['records', 'blobs'],
    },
  }),
} satisfies Record<string, JsonSchema>

// ---------------------------------------------------------------------------------------------
// Helpers for route descriptions
// ---------------------------------------------------------------------------------------------

const JSON_TYPE = 'application/json'

/** A JSON response. */
export function jsonResponse(description: string, schema: JsonSchema, headers?: OpenApiResponse['headers']) {
  return { description, content: { [JSON_TYPE]: { schema } }, ...(headers && { headers }) } satisfies OpenApiResponse
}

/** `{"data": …}`, the envelope of every v3 success. */
export const envelope = (schema: JsonSchema): JsonSchema => object({ data: schema })

/** `{200: {data: schema}}` */
export const okData = (schema: JsonSchema, description = 'OK', status = '200') => ({
  [status]: jsonResponse(description, envelope(schema)),
})

/** `{200: {data: null}}`, the answer of deletions and other mutations without a body. */
export const okNull = (description = 'Done') => okData({ type: 'null' }, description)

/** A JSON request body. */
export const jsonBody = (schema: JsonSchema, description?: string): NonNullable<RouteOpenApi['requestBody']> => ({
  required: true,
  ...(description && { description }),
  content: { [JSON_TYPE]: { schema } },
})

export const query = (name: string, schema: JsonSchema = string, description?: string): OpenApiParameter => ({
  name,
  in: 'query',
  schema,
  ...(description && { description }),
})

export const pageParams = [
  query('limit', { type: 'string', pattern: '^\\d+$' }, 'Page size'),
  query('pageToken', string, 'The `next_page_token` of the previous page'),
]

/** The `{error}` body, as used in responses. */
export const errorResponse = (description: string) => jsonResponse(description, ref('Error'))

export const schemas = { string, dateTime, integer, object, keyvalues, network: networkSchema }
