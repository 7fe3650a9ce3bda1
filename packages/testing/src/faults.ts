import { randomBytes } from 'node:crypto'
import { readdirSync, readlinkSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createFsBlobStore } from '@pinfold/adapter-fs'
import { createMemoryRecordStore } from '@pinfold/adapter-memory'
import {
  type BlobStore,
  type CallOptions,
  type Embedder,
  type PaymentVerifier,
  PinfoldError,
  type RecordStore,
  type TextExtractor,
} from '@pinfold/core'
import { createOfflineVerifier } from '@pinfold/x402'
import { expect } from 'vitest'
import { startPaidApi } from './payments.js'
import { actorOf, figures } from './reliability.js'
import { countFiles } from './storage.js'
import { form, type TestApi } from './test-api.js'

/** Which faults are armed right now; tests flip them between requests. */
export interface FaultPlan {
  /** `put` fails (UNAVAILABLE) once this many bytes went through it. */
  putFailsAfterBytes?: number | undefined
  /** A blob read fails after this many bytes. */
  getFailsAfterBytes?: number | undefined
  /** `delete` fails. */
  deleteFails?: boolean | undefined
  /** Record store methods that fail with UNAVAILABLE. */
  records?: ReadonlySet<string> | undefined
  /** The payment verifier's `verify` fails with UNAVAILABLE. */
  verifierDown?: boolean | undefined
}

const injected = (what: string) => {
  figures.faultsInjected++
  return new PinfoldError('UNAVAILABLE', `injected fault: ${what}`)
}

async function* failingAfter(source: AsyncIterable<Uint8Array>, bytes: number, what: string) {
  let seen = 0
  for await (const chunk of source) {
    seen += chunk.length
    if (seen > bytes) throw injected(what)
    yield chunk
  }
}

/** A blob store whose writes, reads and deletes fail as the plan says. */
export function faultyBlobs(inner: BlobStore, plan: FaultPlan): BlobStore {
  return {
    put: (key, source, options) =>
      plan.putFailsAfterBytes === undefined
        ? inner.put(key, source, options)
        : inner.put(key, failingAfter(source, plan.putFailsAfterBytes, 'blob put'), options),
    async get(key, options) {
      const stream = await inner.get(key, options)
      return plan.getFailsAfterBytes === undefined ? stream : failingAfter(stream, plan.getFailsAfterBytes, 'blob get')
    },
    head: (key, options) => inner.head(key, options),
    async delete(key, options) {
      if (plan.deleteFails) throw injected('blob delete')
      return inner.delete(key, options)
    },
    ...(inner.list && { list: (options?: CallOptions & { prefix?: string }) => inner.list!(options) }),
    // resumable uploads append to a staged write: its parts fail like a put's bytes
    ...(inner.staged && { staged: faultyStagedWrites(inner.staged, plan) }),
  }
}

function faultyStagedWrites(
  inner: NonNullable<BlobStore['staged']>,
  plan: FaultPlan,
): NonNullable<BlobStore['staged']> {
  return {
    minPartBytes: inner.minPartBytes,
    begin: (key, options) => inner.begin(key, options),
    appendPart: (key, handle, offset, source, options) =>
      inner.appendPart(
        key,
        handle,
        offset,
        plan.putFailsAfterBytes === undefined ? source : failingAfter(source, plan.putFailsAfterBytes, 'staged part'),
        options,
      ),
    complete: (key, handle, parts, options) => inner.complete(key, handle, parts, options),
    abort: (key, handle, options) => inner.abort(key, handle, options),
  }
}

/** A record store whose named methods (of any of its parts) fail as the plan says. */
export function faultyRecords(inner: RecordStore, plan: FaultPlan): RecordStore {
  const faulty = <Part extends object>(part: Part): Part =>
    new Proxy(part, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver)
        if (typeof value !== 'function') return value
        return (...args: unknown[]) => {
          if (plan.records?.has(String(property))) return Promise.reject(injected(`records.${String(property)}`))
          return value.apply(target, args)
        }
      },
    })
  return Object.fromEntries(Object.entries(inner).map(([name, part]) => [name, faulty(part)])) as RecordStore
}

export function faultyVerifier(inner: PaymentVerifier, plan: FaultPlan): PaymentVerifier {
  return {
    verify: (payment, requirement, options) =>
      plan.verifierDown ? Promise.reject(injected('payment verify')) : inner.verify(payment, requirement, options),
    settle: (payment, requirement, options) => inner.settle(payment, requirement, options),
  }
}

/**
 * The in-process API over the given, possibly faulty, ports, with x402 (`PAY_TO`) and any embedder
 * and text extractor the test passes.
 */
export function startFaultApi(options: {
  records: RecordStore
  blobs: BlobStore
  embedder?: Embedder
  textExtractor?: TextExtractor
  payments?: PaymentVerifier
}): Promise<TestApi> {
  return startPaidApi({ ...options, embedder: options.embedder ?? null })
}

/** This process's open file descriptors that point under `directory` (Linux; 0 elsewhere). */
export function openFilesUnder(directory: string): number {
  let fds: string[]
  try {
    fds = readdirSync('/proc/self/fd')
  } catch {
    return 0
  }
  let count = 0
  for (const fd of fds) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`).startsWith(directory)) count++
    } catch {}
  }
  return count
}

/** Polls `probe` until it answers true or `ms` pass (cleanup after an abort is asynchronous). */
export async function eventually(probe: () => boolean | Promise<boolean>, ms = 5000): Promise<boolean> {
  const deadline = Date.now() + ms
  for (;;) {
    if (await probe()) return true
    if (Date.now() > deadline) return false
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

export interface FaultSuite {
  /** The API over the faulty ports (served over HTTP when `serve` was given). */
  server: TestApi
  /** Where the filesystem blob store keeps its blobs and temp files. */
  dir: string
  /** Blob files and temp files under `dir`. */
  blobs(): number
  temps(): number
  /** The ids of every file of tenant `org`, read from the service. */
  fileIds(org?: string): Promise<string[]>
  /** What a failed request must leave as it was. */
  state(): Promise<{ blobs: number; temps: number; files: string[] }>
  upload(
    bytes: Uint8Array | string,
    fields?: Record<string, string>,
  ): Promise<{ status: number; body: { data: { id: string; cid: string }; error?: string } }>
  /** The fault was answered as the contract says and the server serves a normal upload right after. */
  survived(status: number, expected?: number[]): Promise<void>
  close(): Promise<void>
}

/**
 * The API over faulty ports armed by `plan`: memory records, a filesystem blob store in a temporary
 * directory, the offline payment verifier, and the embedder and text extractor the test passes.
 * `serve` puts it behind a real server (packages/server/test does, for faults the bridge handles).
 */
export async function startFaultSuite(
  plan: FaultPlan,
  options: { embedder?: Embedder; textExtractor?: TextExtractor; serve?: (api: TestApi) => Promise<TestApi> } = {},
): Promise<FaultSuite> {
  const dir = await mkdtemp(join(tmpdir(), 'pinfold-faults-'))
  const api = await startFaultApi({
    records: faultyRecords(createMemoryRecordStore(), plan),
    blobs: faultyBlobs(createFsBlobStore({ directory: dir }), plan),
    embedder: options.embedder,
    textExtractor: options.textExtractor,
    payments: faultyVerifier(createOfflineVerifier(), plan),
  })
  const server = options.serve ? await options.serve(api) : api
  const blobs = () => countFiles(join(dir, 'blobs'))
  const temps = () => countFiles(join(dir, '.tmp'))
  const fileIds = async (org = 'acme') => {
    const ids: string[] = []
    for (const network of ['public', 'private'] as const) {
      const { files } = await server.service.files.list(actorOf(org), network, { limit: 1000 })
      ids.push(...files.map((f) => f.id))
    }
    return ids.sort()
  }
  const upload: FaultSuite['upload'] = async (bytes, fields = { network: 'public' }) => {
    const res = await server.api('/v3/files', { method: 'POST', body: form(fields, { bytes, name: 'f.txt' }) })
    const body = (await res.json()) as { data: { id: string; cid: string }; error?: string }
    return { status: res.status, body }
  }
  return {
    server,
    dir,
    blobs,
    temps,
    fileIds,
    state: async () => ({ blobs: blobs(), temps: temps(), files: await fileIds() }),
    upload,
    async survived(status, expected = [503]) {
      expect(expected).toContain(status)
      const next = await upload(randomBytes(2048))
      expect(next.status, next.body.error).toBe(200)
      figures.faultsSurvived++
    },
    async close() {
      await server.close()
      await rm(dir, { recursive: true, force: true })
    },
  }
}
