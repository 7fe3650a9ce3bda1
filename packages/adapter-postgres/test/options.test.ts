import { describe, expect, it } from 'vitest'
import { createPostgresRecordStore, type PostgresRecordStoreOptions, type SqlClient } from '../src/index.js'

// construction runs no statement: a stand-in with the two methods is enough to reach the other checks
const client = { query: async () => ({ rows: [] }), transaction: async () => undefined } as unknown as SqlClient

const BAD: [string, Partial<PostgresRecordStoreOptions>][] = [
  ['client', { client: undefined as unknown as SqlClient }],
  ['client', { client: { query: async () => ({ rows: [] }) } as unknown as SqlClient }],
  ['vectors.exactSearchMaxVectors', { vectors: { exactSearchMaxVectors: -1 } }],
  ['vectors.efSearch', { vectors: { efSearch: 0 } }],
  ['vectors.efSearch', { vectors: { efSearch: 1001 } }],
  ['vectors.hnswM', { vectors: { hnswM: 1 } }],
  ['vectors.hnswEfConstruction', { vectors: { hnswM: 32, hnswEfConstruction: 63 } }],
  ['vectors.maxScanTuples', { vectors: { maxScanTuples: 0 } }],
]

describe('createPostgresRecordStore options', () => {
  it.each(BAD)(
    'createPostgresRecordStore - a bad `%s` is INVALID_INPUT at construction, naming package and option',
    (option, bad) => {
      expect(() => createPostgresRecordStore({ client, ...bad })).toThrow(
        expect.objectContaining({
          code: 'INVALID_INPUT',
          message: expect.stringContaining(`@pinfold/adapter-postgres createPostgresRecordStore: option \`${option}\``),
        }),
      )
    },
  )
})
