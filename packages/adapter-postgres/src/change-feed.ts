import { createHash } from 'node:crypto'
import { type ChangeFeed, FACT_CHANGES, type FactChange } from '@pinfold/interface'
import type { Queryable } from './queryable.js'

/** The channel every instance whose tables are in the `public` schema listens on. */
export const CHANGE_CHANNEL = 'pinfold_fact_changes'

/**
 * The channel of the instances whose tables are in `schema`. A notification reaches every session
 * of the database, whatever its schema, so deployments sharing one database in schemas of their own
 * would otherwise drop each other's caches (CI's test files did, each in a fresh schema).
 */
export function changeChannelOf(schema: string): string {
  if (schema === 'public') return CHANGE_CHANNEL
  return `${CHANGE_CHANNEL}_${createHash('sha256').update(schema).digest('hex').slice(0, 16)}`
}
/** How long a dropped listening connection waits before connecting again. */
const RECONNECT_MS = 1000

/** A connection of its own that receives notifications: a `pg.Client` (not a pooled one). */
export interface NotificationConnection extends Queryable {
  on(event: 'notification', listener: (message: { channel: string; payload?: string | undefined }) => void): unknown
  on(event: 'error' | 'end', listener: (error?: Error) => void): unknown
  end(): Promise<void>
}

export interface PostgresChangeFeedOptions {
  /** Where `NOTIFY` is sent from: the record store's client (any pooled connection). */
  client: Queryable
  /** Opens (and connects) a connection of its own for `LISTEN`; called again after it drops. */
  connect(): Promise<NotificationConnection>
}

export interface PostgresChangeFeed extends ChangeFeed {
  /** Stops listening and closes the listening connection. */
  close(): Promise<void>
}

/**
 * Changes announced with PostgreSQL's `NOTIFY` on the schema's channel ({@link changeChannelOf}), heard by every instance with
 * `LISTEN` on a connection of its own. When that connection drops, subscribers are told `lost`
 * (notifications sent meanwhile are gone) and it reconnects after a second, telling them `lost`
 * again once listening, since changes may have happened while it was away.
 */
export async function createPostgresChangeFeed({
  client,
  connect,
}: PostgresChangeFeedOptions): Promise<PostgresChangeFeed> {
  const { rows } = await client.query('select current_schema() as schema')
  const channel = changeChannelOf(String(rows[0]?.schema ?? 'public'))
  const listeners = new Set<(change: FactChange | 'lost') => void>()
  const tell = (change: FactChange | 'lost') => {
    for (const listener of listeners) listener(change)
  }
  let closed = false
  let connection: NotificationConnection | undefined
  let retry: ReturnType<typeof setTimeout> | undefined

  async function listen(): Promise<void> {
    const opened = await connect()
    opened.on('notification', (message) => {
      if (message.channel !== channel) return
      const { payload } = message
      // an unknown payload (a newer version's change) drops everything rather than nothing
      tell(FACT_CHANGES.includes(payload as FactChange) ? (payload as FactChange) : 'lost')
    })
    const dropped = () => {
      if (connection !== opened) return
      connection = undefined
      tell('lost')
      if (!closed) retry = setTimeout(reconnect, RECONNECT_MS)
    }
    opened.on('error', dropped)
    opened.on('end', dropped)
    await opened.query(`listen ${channel}`)
    connection = opened
    if (closed) await opened.end()
  }

  function reconnect() {
    listen().then(
      () => tell('lost'),
      () => {
        if (!closed) retry = setTimeout(reconnect, RECONNECT_MS)
      },
    )
  }

  await listen()
  return {
    async publish(change) {
      await client.query('select pg_notify($1, $2)', [channel, change])
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    async close() {
      closed = true
      clearTimeout(retry)
      const open = connection
      connection = undefined
      await open?.end().catch(() => {})
    },
  }
}
