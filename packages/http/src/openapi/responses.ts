import Type, { type TSchema } from 'typebox'
import { named } from '../schema.js'
import type { OpenApiResponse } from './types.js'

/**
 * The envelopes every route's responses are written with: `{data: …}` for a v3 success, `{error}`
 * for every failure. A resource's own shapes live in its folder (`resources/<resource>/wire.ts`).
 */

export const ErrorObject = named(
  'Error',
  Type.Object({ error: Type.String() }, { description: 'Every failure: a message written for the client' }),
)

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

/** `{200: "OK"}` as plain text, the answer of the legacy API's mutations (its SDKs read it as text). */
export const okText = (description = 'Done') => ({
  '200': { description, content: { 'text/plain': { schema: Type.Literal('OK') } } } satisfies OpenApiResponse,
})
