import cluster, { type Worker } from 'node:cluster'
import type { ServerConfig } from '../config.js'
import { lockDataDir } from '../data-dir-lock.js'
import { openEmbeddedDatabase } from '../embedded-database.js'
import { startMetricsListener } from '../metrics/metrics-endpoint.js'
import { loadOrCreateSecret } from '../secret.js'
import { ensureWritableDataDir, writesDataDir } from '../writable-data-dir.js'
import {
  isPinfoldMessage,
  type PrimaryMessage,
  serializeError,
  WORKER_SLOT_VARIABLE,
  type WorkerMessage,
  type WorkerRequest,
} from './messages.js'
import { createSqlHost } from './sql-host.js'

/** A worker that dies is started again after this long, so a crash loop does not spin. */
const RESTART_DELAY_MS = 1000

export interface RunningCluster {
  /** What worker 1 reported once listening (url, storage, …), for the start-up log. */
  listening: Record<string, unknown>
  secret: string
  /** Drains every worker (each as one process drains on SIGTERM), then closes the database. */
  close(): Promise<void>
}

type Log = (level: 'info' | 'error', message: string, fields: Record<string, unknown>) => void

/**
 * `pinfold serve --workers N`: N worker processes (node:cluster) answer on the one port; this
 * process supervises them. It starts them, starts one again when it dies, drains them all on
 * SIGTERM, sums their metrics for `/metrics`, relays the gateway caches' change notices between
 * them and, on the embedded default, owns the PGlite database (and the data directory's lock) and
 * runs the workers' statements on it. Worker 1 runs the background jobs.
 */
export async function startCluster(config: ServerConfig, log: Log): Promise<RunningCluster> {
  if (writesDataDir(config, false)) await ensureWritableDataDir(config.dataDir)
  // made here, before the workers read it: N processes racing to create it would each mint one
  const secret = config.authSecret ?? (await loadOrCreateSecret(config.dataDir))
  const database = config.databaseUrl || config.storage !== 'embedded' ? undefined : await openDatabase(config)
  const sql = database && createSqlHost(database.client)
  const metricsOn = config.metrics.token !== undefined || config.metrics.listen !== undefined
  const aggregator = metricsOn ? new (await import('prom-client')).AggregatorRegistry() : undefined
  const metricsListener =
    aggregator && config.metrics.listen
      ? await startMetricsListener(config.metrics.listen, {
          registry: { metrics: () => aggregator.clusterMetrics(), contentType: aggregator.contentType },
          token: config.metrics.token,
        })
      : undefined

  cluster.setupPrimary({ serialization: 'advanced' })
  const workers = new Map<number, Worker>()
  const listening = new Map<number, Record<string, unknown>>()
  let stopping = false
  let started: (fields: Record<string, unknown>) => void
  let failed: (error: Error) => void
  const ready = new Promise<Record<string, unknown>>((resolve, reject) => {
    started = resolve
    failed = reject
  })
  let announced = false
  let allExited: () => void = () => {}

  const perform = (worker: Worker, request: WorkerRequest): Promise<unknown> => {
    if (request.kind === 'metrics') {
      return aggregator ? aggregator.clusterMetrics() : Promise.reject(new Error('metrics are off'))
    }
    if (!sql) return Promise.reject(new Error('no embedded database in this cluster'))
    // the rows only: PGlite's field descriptions would cross the channel for nothing
    if (request.kind === 'query')
      return sql.query(request.text, request.params, request.tx).then(({ rows }) => ({ rows }))
    if (request.kind === 'begin') return sql.begin(worker.id)
    return sql.end(request.tx, request.commit)
  }

  function fork(slot: number): void {
    const worker = cluster.fork({ [WORKER_SLOT_VARIABLE]: String(slot) })
    workers.set(slot, worker)
    worker.on('message', (message: unknown) => {
      if (!isPinfoldMessage(message)) return
      const received = message as WorkerMessage
      if (received.pinfold === 'ask') {
        perform(worker, received.request).then(
          (value) => tell(worker, { pinfold: 'reply', id: received.id, value }),
          (error: unknown) => tell(worker, { pinfold: 'reply', id: received.id, error: serializeError(error) }),
        )
      } else if (received.pinfold === 'change') {
        for (const each of workers.values()) tell(each, { pinfold: 'change', change: received.change })
      } else if (received.pinfold === 'listening') {
        log('info', 'worker listening', { worker: slot, pid: worker.process.pid })
        listening.set(slot, received.fields)
        if (!announced && listening.size === config.workers) {
          announced = true
          started({ ...listening.get(1), workers: config.workers })
        }
      }
    })
    worker.on('exit', (code, signal) => {
      sql?.workerGone(worker.id)
      if (workers.get(slot) === worker) workers.delete(slot)
      if (stopping) {
        if (workers.size === 0) allExited()
        return
      }
      if (!announced) {
        // a worker that cannot start (a bad setting, a database it cannot reach) would fail again
        stopping = true
        for (const other of workers.values()) other.process.kill('SIGTERM')
        failed(new Error(`worker ${slot} exited before listening (code ${code}, signal ${signal})`))
        return
      }
      log('error', 'worker exited: starting another', { worker: slot, code, signal })
      // not unref'd: when every worker died at once, this timer is what keeps the primary alive
      setTimeout(() => {
        if (!stopping) fork(slot)
      }, RESTART_DELAY_MS)
    })
  }

  for (let slot = 1; slot <= config.workers; slot++) fork(slot)
  let fields: Record<string, unknown>
  try {
    fields = await ready
  } catch (error) {
    await new Promise<void>((resolve) => {
      allExited = resolve
      if (workers.size === 0) resolve()
    })
    await metricsListener?.close()
    await database?.close()
    throw error
  }
  return {
    listening: fields,
    secret,
    async close() {
      stopping = true
      const exited = new Promise<void>((resolve) => {
        allExited = resolve
        if (workers.size === 0) resolve()
      })
      for (const worker of workers.values()) worker.process.kill('SIGTERM')
      await exited
      await metricsListener?.close()
      // after the last worker: their last statements (the usage flush) run on it
      await database?.close()
    },
  }
}

/** Sends unless the worker is gone (its requests die with it). */
function tell(worker: Worker, message: PrimaryMessage): void {
  if (!worker.isConnected()) return
  try {
    worker.send(message)
  } catch {}
}

/** The embedded database, locked to this process and migrated before any worker starts. */
async function openDatabase(config: ServerConfig) {
  const lock = await lockDataDir(config.dataDir)
  try {
    const [{ db }, { fromPGlite, migrate }] = await Promise.all([
      openEmbeddedDatabase(config.dataDir),
      import('@pinfold/adapter-postgres'),
    ])
    const client = fromPGlite(db)
    try {
      await migrate(client)
    } catch (error) {
      await db.close()
      throw error
    }
    return {
      client,
      async close() {
        await db.close()
        await lock.release()
      },
    }
  } catch (error) {
    await lock.release()
    throw error
  }
}
