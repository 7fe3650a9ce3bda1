import type { VectorQueryResult as QueryResult } from '@pinfold/core'
import Type, { type Static } from 'typebox'
import { Count, named } from '../../schema.js'

export const VectorMutation = named(
  'VectorMutation',
  Type.Object({ success: Type.Literal(true), status: Type.Literal(true) }),
)

export const VectorQuery = named(
  'VectorQuery',
  Type.Object({
    text: Type.String({ description: 'What to look for' }),
    limit: Type.Optional(Type.Integer({ description: 'Most matches to return' })),
  }),
)

export const VectorQueryResult = named(
  'VectorQueryResult',
  Type.Object({
    count: Count,
    matches: Type.Array(Type.Object({ file_id: Type.String(), cid: Type.String(), score: Type.Number() })),
  }),
)

export function vectorQueryResultToWire(result: QueryResult): Static<typeof VectorQueryResult> {
  return {
    count: result.count,
    matches: result.matches.map((match) => ({ file_id: match.fileId, cid: match.cid, score: match.score })),
  }
}
