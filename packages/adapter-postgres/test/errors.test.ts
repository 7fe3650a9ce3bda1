import { once } from 'node:events'
import { createServer } from 'node:net'
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { createPostgresRecordStore, fromPgPool, migrate } from '../src/index.js'
import { serverSchema, TEST_DATABASE_URL } from './targets.js'

/** A port on which nothing listens: bound once by us, then released. */
async function closedPort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as { port: number }
  server.close()
  await once(server, 'close')
  return port
}

describe('error mapping', () => {
  it('every call - an unreachable server is UNAVAILABLE with the driver error as cause', async () => {
    const pool = new pg.Pool({ host: '127.0.0.1', port: await closedPort(), user: 'nobody', database: 'none' })
    const client = fromPgPool(pool)
    const store = createPostgresRecordStore({ client })
    try {
      // One plain statement, one transaction: the two ways the store reaches the database.
      for (const call of [
        () => store.files.getContent('bafkreiexample'),
        () => store.files.deleteFile('tenant', 'public', '0190b1a0-0000-7000-8000-000000000000'),
        () => migrate(client),
      ]) {
        await expect(call()).rejects.toMatchObject({
          code: 'UNAVAILABLE',
          cause: expect.objectContaining({ code: 'ECONNREFUSED' }),
        })
      }
    } finally {
      await pool.end()
    }
  })

  it.runIf(TEST_DATABASE_URL)('every call - a connection the server terminates is UNAVAILABLE (57P01)', async () => {
    const schema = await serverSchema(TEST_DATABASE_URL!)
    try {
      await migrate(schema.client)
      const store = createPostgresRecordStore({ client: schema.client })
      const terminating = createPostgresRecordStore({
        client: {
          ...schema.client,
          // Ends the backend itself, as an administrator or a server restart would.
          query: (text, params) =>
            text.startsWith('select')
              ? schema.client.query('select pg_terminate_backend(pg_backend_pid())')
              : schema.client.query(text, params),
        },
      })
      await expect(terminating.files.getContent('bafkreiexample')).rejects.toMatchObject({
        code: 'UNAVAILABLE',
        cause: expect.objectContaining({ code: '57P01' }),
      })
      expect(await store.files.getContent('bafkreiexample')).toBeUndefined()
    } finally {
      await schema.drop()
    }
  })
})
