import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import {
  abortError,
  createFairSlots,
  type FairSlotsStats,
  optionChecks,
  PinfoldError,
  throwIfAborted,
} from '@pinfold/interface'
import { Piscina } from 'piscina'
import { type ExtractionTask, type ExtractOptions, readExtractionTask } from './extraction-task.js'
import type { ExtractionReply } from './extraction-worker.js'

export interface ExtractionPoolOptions {
  /** Extractions running at once, each on its own worker thread. Default: the CPUs less one, at least 1. */
  threads?: number
  /** Extractions waiting for a thread at most; one more is refused with `RATE_LIMITED`. Default 100. */
  maxQueue?: number
  /**
   * Extractions one tenant (`ExtractOptions.tenant`) may have running or waiting; one more is
   * refused with `RATE_LIMITED` while other tenants' still run. Default a quarter of the queue.
   */
  maxPerTenant?: number
  /** Extractions of one tenant running at once; default one fewer than `threads`, at least 1. */
  maxRunningPerTenant?: number
  /** Wall-clock time one extraction may run (waiting excluded); its worker is then terminated. Default 20 s. */
  timeoutMs?: number
  /** V8 heap of a worker, in MiB; a worker that needs more is terminated. Default 256. */
  maxHeapMb?: number
}

export interface ExtractionPool {
  /** `extractPassages`, with the parsing on a worker thread. Fits the `TextExtractor` port. */
  extract(source: AsyncIterable<Uint8Array>, options: ExtractOptions): Promise<string[]>
  /** Stops the workers; extractions still running are abandoned. */
  close(): Promise<void>
  /** Extractions running and waiting now, and refused so far (`RATE_LIMITED`), for metrics. */
  stats(): FairSlotsStats
}

/**
 * Text extraction off the main thread. A tenant's file can be built to be slow or huge to parse (a
 * PDF whose streams inflate a thousandfold, markup nested a million deep); parsed on the main thread
 * it would stall every other request. Here only reading the bytes happens on the calling thread;
 * parsing runs on a worker with a heap limit and a wall-clock limit, and a worker that exceeds
 * either is terminated and the extraction refused with `UNPROCESSABLE` ("could not be extracted
 * within limits"), so the caller changes nothing. Inputs that inflate past a size cap are
 * `PAYLOAD_TOO_LARGE`.
 */
export function createExtractionPool(options: ExtractionPoolOptions = {}): ExtractionPool {
  const check = optionChecks('@pinfold/text-extract', 'createExtractionPool')
  const threads = check.positiveInteger('threads', options.threads ?? Math.max(1, availableParallelism() - 1))
  const maxQueue = check.positiveInteger('maxQueue', options.maxQueue ?? 100)
  const timeoutMs = check.positiveInteger('timeoutMs', options.timeoutMs ?? 20_000)
  const maxHeapMb = check.positiveInteger('maxHeapMb', options.maxHeapMb ?? 256)
  const pool = new Piscina<ExtractionTask, ExtractionReply>({
    ...workerEntry(),
    minThreads: 0,
    maxThreads: threads,
    idleTimeout: 30_000,
    resourceLimits: { maxOldGenerationSizeMb: maxHeapMb },
    // below the main thread's priority, so a busy extraction leaves it the CPU (where the OS allows)
    niceIncrement: 10,
  })
  // Our own queue in front of piscina's, so the time limit starts when a thread takes the task, not
  // when it is queued: an honest file waiting behind a slow one must not time out. Fair between
  // tenants, so one tenant's files cannot hold every thread and fill the queue.
  const slots = createFairSlots({
    concurrency: threads,
    maxQueue,
    maxPerParty: check.optionalPositiveInteger('maxPerTenant', options.maxPerTenant),
    maxRunningPerParty: check.optionalPositiveInteger('maxRunningPerTenant', options.maxRunningPerTenant),
    what: 'text extractions',
  })

  async function run(task: ExtractionTask, signal: AbortSignal | undefined): Promise<string[]> {
    throwIfAborted(signal)
    const timeout = AbortSignal.timeout(timeoutMs)
    let reply: ExtractionReply
    try {
      reply = await pool.run(task, {
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        transferList: [task.bytes.buffer as ArrayBuffer],
      })
    } catch (err) {
      if (signal?.aborted) throw abortError(signal)
      throw limitError(err, task, { timeoutMs, maxHeapMb, timedOut: timeout.aborted })
    }
    if ('error' in reply) {
      throw new PinfoldError(reply.error.code, reply.error.message, { details: { ...reply.error.details } })
    }
    return reply.passages
  }

  return {
    async extract(source, extractOptions) {
      const task = await readExtractionTask(source, extractOptions)
      const { signal } = extractOptions
      return slots.run(extractOptions.tenant ?? '', () => run(task, signal), signal)
    },
    close: () => pool.destroy(),
    stats: () => slots.stats(),
  }
}

/** Why a worker stopped without answering: out of time, out of memory, or (a bug) anything else. */
function limitError(
  err: unknown,
  task: ExtractionTask,
  limits: { timeoutMs: number; maxHeapMb: number; timedOut: boolean },
): PinfoldError {
  const what = `the ${task.kind.toUpperCase()} file could not be extracted`
  if (limits.timedOut) {
    return new PinfoldError('UNPROCESSABLE', `${what} within ${limits.timeoutMs / 1000} s`, {
      cause: err,
      details: { timeoutMs: limits.timeoutMs },
    })
  }
  if ((err as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY') {
    return new PinfoldError('UNPROCESSABLE', `${what} within ${limits.maxHeapMb} MiB of memory`, {
      cause: err,
      details: { maxHeapMb: limits.maxHeapMb },
    })
  }
  return new PinfoldError('INTERNAL', `text extraction failed: ${(err as Error).message}`, { cause: err })
}

/**
 * The worker's file: the built `extraction-worker.js` beside this module in `dist`, or, when this
 * module runs from `src` (vitest, tsx with the `source` condition), a loader of the TypeScript file,
 * with the same condition so its imports resolve to sources too.
 */
function workerEntry(): { filename: string; execArgv?: string[] } {
  if (!import.meta.url.endsWith('.ts')) {
    return { filename: fileURLToPath(new URL('./extraction-worker.js', import.meta.url)) }
  }
  return {
    filename: fileURLToPath(new URL('./extraction-worker-source.mjs', import.meta.url)),
    execArgv: ['--conditions=source'],
  }
}
