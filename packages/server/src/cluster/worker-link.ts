import type { SqlClient } from '@pinfold/adapter-postgres'
import type { ChangeFeed, FactChange } from '@pinfold/core'
import type { MetricsSource } from '../metrics/metrics-endpoint.js'
import {
  deserializeError,
  isPinfoldMessage,
  type PrimaryMessage,
  type WorkerMessage,
  type WorkerRequest,
} from './messages.js'

/** This process's place in `pinfold serve --workers N`: what it does besides answering requests. */
export interface WorkerRole {
  /** 1 … N; a restarted worker keeps the number of the one it replaces. */
  slot: number
  /** The one worker that runs the background jobs (sweeps, pin jobs, the IPFS node). */
  runsJobs: boolean
  /** The embedded database, owned by the primary process and reached through it. */
  embedded: { sql: SqlClient; changes: ChangeFeed } | undefined
  /** `/metrics` of the whole cluster, summed by the primary. */
  clusterMetrics: MetricsSource
  /** Tells the primary this worker listens, with what the start-up log says of it (url, storage, …). */
  listening(fields: Record<string, unknown>): void
}

/** The worker's side of the IPC channel to the primary: requests with replies, and change notices. */
export function workerRole(slot: number, embedded: boolean): WorkerRole {
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>()
  const changeListeners = new Set<(change: FactChange | 'lost') => void>()
  let nextId = 0
  process.on('message', (message: unknown) => {
    if (!isPinfoldMessage(message)) return
    const received = message as PrimaryMessage
    if (received.pinfold === 'change') {
      for (const listener of changeListeners) listener(received.change)
      return
    }
    const waiting = pending.get(received.id)
    if (!waiting) return
    pending.delete(received.id)
    if (received.error) waiting.reject(deserializeError(received.error))
    else waiting.resolve(received.value)
  })
  const send = (message: WorkerMessage) => process.send?.(message)
  const ask = <T>(request: WorkerRequest): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const id = nextId++
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject })
      send({ pinfold: 'ask', id, request })
    })

  const query = (tx: number | undefined) => (text: string, params?: unknown[]) =>
    ask<{ rows: Record<string, unknown>[] }>({ kind: 'query', text, params, tx })
  const sql: SqlClient = {
    query: query(undefined),
    // the primary holds the embedded database's transaction open until this worker ends it
    async transaction(work) {
      const tx = await ask<number>({ kind: 'begin' })
      let result: Awaited<ReturnType<typeof work>>
      try {
        result = await work({ query: query(tx) })
      } catch (error) {
        // the work's own failure is what the caller needs, not a failed rollback's
        await ask({ kind: 'end', tx, commit: false }).catch(() => {})
        throw error
      }
      await ask({ kind: 'end', tx, commit: true })
      return result
    },
  }
  const changes: ChangeFeed = {
    // the primary tells every worker, this one included, as the port asks
    async publish(change) {
      send({ pinfold: 'change', change })
    },
    subscribe(listener) {
      changeListeners.add(listener)
      return () => changeListeners.delete(listener)
    },
  }
  return {
    slot,
    runsJobs: slot === 1,
    embedded: embedded ? { sql, changes } : undefined,
    clusterMetrics: {
      contentType: 'text/plain; version=0.0.4; charset=utf-8',
      metrics: () => ask<string>({ kind: 'metrics' }),
    },
    listening: (fields) => send({ pinfold: 'listening', fields }),
  }
}
