import { availableParallelism } from 'node:os'
import { Worker } from 'node:worker_threads'
import { from } from 'multiformats/hashes/hasher'

/**
 * SHA-256 on worker threads, as a multiformats hasher.
 *
 * Hashing every byte of an upload is the largest single cost of computing its CID; on the main
 * thread it competes with parsing the request and writing the blob, so an upload ran at a third
 * of the speed of hashing alone. Each block is copied to a worker (a 256 KiB copy costs far less
 * than hashing it) and hashed there while the main thread goes on.
 *
 * The worker source is inline so that it loads the same way from `src/` under a TypeScript loader,
 * from vitest and from a bundle. Workers are started on first use and never keep a process alive.
 */

/** Copy buffers travel to the worker and back, so hashing a whole upload leaves no garbage. */
const SPARE_BUFFERS = 16
const SMALLEST_SPARE = 64 * 1024
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads')
const { createHash } = require('node:crypto')
parentPort.on('message', ({ id, buffer, length }) => {
  const digest = createHash('sha256').update(new Uint8Array(buffer, 0, length)).digest()
  parentPort.postMessage({ id, digest, buffer }, [buffer])
})
`

interface HashReply {
  id: number
  digest: Uint8Array<ArrayBuffer>
  buffer: ArrayBuffer
}

interface Job {
  resolve(digest: Uint8Array<ArrayBuffer>): void
  reject(error: unknown): void
}

class HashWorker {
  private readonly worker: Worker
  private readonly jobs = new Map<number, Job>()
  private nextId = 0
  private readonly spares: ArrayBuffer[] = []
  dead = false

  constructor() {
    this.worker = new Worker(WORKER_SOURCE, { eval: true })
    this.worker.unref()
    this.worker.on('message', ({ id, digest, buffer }: HashReply) => {
      if (buffer.byteLength >= SMALLEST_SPARE) {
        this.spares.push(buffer)
        // the oldest go first, so spares of a chunk size no longer in use do not linger
        if (this.spares.length > SPARE_BUFFERS) this.spares.shift()
      }
      const job = this.jobs.get(id)
      this.jobs.delete(id)
      if (this.jobs.size === 0) this.worker.unref()
      job?.resolve(digest)
    })
    const fail = (error: unknown) => {
      this.dead = true
      for (const job of this.jobs.values()) job.reject(error)
      this.jobs.clear()
    }
    this.worker.on('error', fail)
    this.worker.on('exit', (code) => fail(new Error(`the hashing worker exited with code ${code}`)))
  }

  get pending(): number {
    return this.jobs.size
  }

  digest(bytes: Uint8Array): Promise<Uint8Array<ArrayBuffer>> {
    return new Promise((resolve, reject) => {
      const id = this.nextId++
      this.jobs.set(id, { resolve, reject })
      // A pending hash keeps the process alive, as a pending fs read would.
      if (this.jobs.size === 1) this.worker.ref()
      // The bytes are copied into a buffer of our own that is handed over, not cloned: cloning a
      // view clones its whole underlying buffer, which for a chunk of a socket read is far larger.
      const buffer = this.spareOf(bytes.byteLength) ?? new ArrayBuffer(bytes.byteLength)
      new Uint8Array(buffer, 0, bytes.byteLength).set(bytes)
      this.worker.postMessage({ id, buffer, length: bytes.byteLength }, [buffer])
    })
  }

  /** Chunks of one import all have the chunker's size, but the last; a spare fits exactly. */
  private spareOf(length: number): ArrayBuffer | undefined {
    const index = this.spares.findIndex((spare) => spare.byteLength === length)
    return index === -1 ? undefined : this.spares.splice(index, 1)[0]
  }
}

/** One core stays with the main thread; a few workers are enough to out-run any one upload. */
const POOL_SIZE = Math.max(1, Math.min(4, availableParallelism() - 1))
const pool: HashWorker[] = []

function leastBusyWorker(): HashWorker {
  for (let i = pool.length - 1; i >= 0; i--) if (pool[i]!.dead) pool.splice(i, 1)
  const idle = pool.find((worker) => worker.pending === 0)
  if (idle) return idle
  if (pool.length < POOL_SIZE) {
    const worker = new HashWorker()
    pool.push(worker)
    return worker
  }
  return pool.reduce((best, worker) => (worker.pending < best.pending ? worker : best))
}

export const sha256OnWorkers = from({
  name: 'sha2-256',
  code: 0x12,
  encode: (bytes: Uint8Array) => leastBusyWorker().digest(bytes),
})
