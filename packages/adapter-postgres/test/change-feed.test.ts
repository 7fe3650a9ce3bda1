import { describeChangeFeed } from '@pinfold/conformance'
import pg from 'pg'
import { describe, it } from 'vitest'
import { createPostgresChangeFeed } from '../src/index.js'
import { TEST_DATABASE_URL } from './targets.js'

// NOTIFY/LISTEN between processes needs a server: the embedded PGlite has one process, which
// tells its own cache directly (no feed).
if (TEST_DATABASE_URL) {
  const url = TEST_DATABASE_URL
  describeChangeFeed('PostgreSQL server (TEST_DATABASE_URL)', async () => {
    const pools = [new pg.Pool({ connectionString: url, max: 2 }), new pg.Pool({ connectionString: url, max: 2 })]
    const connect = async () => {
      const client = new pg.Client({ connectionString: url })
      await client.connect()
      return client
    }
    const feeds = await Promise.all(pools.map((pool) => createPostgresChangeFeed({ client: pool, connect })))
    return {
      feeds: [feeds[0]!, feeds[1]!],
      async close() {
        await Promise.all(feeds.map((feed) => feed.close()))
        await Promise.all(pools.map((pool) => pool.end()))
      },
    }
  })
} else {
  describe('ChangeFeed conformance: PostgreSQL server', () => {
    it.skip('needs TEST_DATABASE_URL', () => {})
  })
}
