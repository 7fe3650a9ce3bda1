import { describeChangeFeed } from '@pinfold/conformance'
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { CHANGE_CHANNEL, changeChannelOf, createPostgresChangeFeed } from '../src/index.js'
import { freshSchemaName, TEST_DATABASE_URL } from './targets.js'

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

  describe('PostgreSQL change feed: schemas', () => {
    /** A feed on `schema` (created if missing), and what it has heard. */
    async function feedOn(schema: string) {
      const admin = new pg.Client({ connectionString: url })
      await admin.connect()
      await admin.query(`create schema if not exists ${schema}`)
      await admin.end()
      const inSchema = new URL(url)
      inSchema.searchParams.set('options', `-c search_path=${schema}`)
      const pool = new pg.Pool({ connectionString: inSchema.toString(), max: 1 })
      const connect = async () => {
        const client = new pg.Client({ connectionString: inSchema.toString() })
        await client.connect()
        return client
      }
      const feed = await createPostgresChangeFeed({ client: pool, connect })
      const heard: string[] = []
      feed.subscribe((change) => heard.push(change))
      const close = async () => {
        await feed.close()
        await pool.end()
      }
      return { feed, heard, close }
    }

    it('a change is heard in its own schema only: deployments sharing a database keep their caches', async () => {
      const schema = freshSchemaName()
      const feeds = [await feedOn(schema), await feedOn(schema), await feedOn(`${schema}_b`)]
      const [one, sameSchema, otherSchema] = feeds as [(typeof feeds)[0], (typeof feeds)[0], (typeof feeds)[0]]
      try {
        await one.feed.publish('deny-rules')
        await expect.poll(() => sameSchema.heard).toEqual(['deny-rules'])
        // notifications reach a listener in the order they were sent: once the other schema's feed
        // hears its own later change, anything of the first schema's would have come before it
        await otherSchema.feed.publish('swaps')
        await expect.poll(() => otherSchema.heard).toEqual(['swaps'])
        expect(sameSchema.heard).toEqual(['deny-rules'])
      } finally {
        await Promise.all(feeds.map((opened) => opened.close()))
      }
    })

    it('the public schema keeps the channel earlier versions listen on', () => {
      expect(changeChannelOf('public')).toBe(CHANGE_CHANNEL)
      expect(changeChannelOf('tenant_a')).not.toBe(changeChannelOf('tenant_b'))
      expect(changeChannelOf('tenant_a')).toMatch(/^pinfold_fact_changes_[0-9a-f]{16}$/)
    })
  })
} else {
  describe('ChangeFeed conformance: PostgreSQL server', () => {
    it.skip('needs TEST_DATABASE_URL', () => {})
  })
}
