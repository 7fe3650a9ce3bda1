import { readdirSync, readlinkSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import {
  type BlobStore,
  type CallOptions,
  createFileService,
  createTokenVerifier,
  type Embedder,
  type FileService,
  mintToken,
  type PaymentVerifier,
  PinfoldError,
  type RecordStore,
  SCOPES,
  type TextExtractor,
} from '@pinfold/core'
import { createFetchHandler } from '@pinfold/http'
import { createNodeHandler } from '@pinfold/http-node'
import { paymentOptionsFromEnv } from '../../src/payments-config.js'
import { figures } from './reliability.js'
import { TEST_SECRET } from './server.js'

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
  }
}

/** A record store whose named methods fail as the plan says. */
export function faultyRecords(inner: RecordStore, plan: FaultPlan): RecordStore {
  return new Proxy(inner, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver)
      if (typeof value !== 'function') return value
      return (...args: unknown[]) => {
        if (plan.records?.has(String(property))) return Promise.reject(injected(`records.${String(property)}`))
        return value.apply(target, args)
      }
    },
  })
}

export function faultyVerifier(inner: PaymentVerifier, plan: FaultPlan): PaymentVerifier {
  return {
    verify: (payment, requirement, options) =>
      plan.verifierDown ? Promise.reject(injected('payment verify')) : inner.verify(payment, requirement, options),
    settle: (payment, requirement, options) => inner.settle(payment, requirement, options),
  }
}

export interface FaultServer {
  url: string
  service: FileService
  api(path: string, init?: RequestInit & { org?: string }): Promise<Response>
  token(org?: string): Promise<string>
  close(): Promise<void>
}

/** A real HTTP server (fetch handler + node bridge) over the given, possibly faulty, ports. */
export async function startFaultServer(options: {
  records: RecordStore
  blobs: BlobStore
  embedder?: Embedder
  textExtractor?: TextExtractor
  payments?: PaymentVerifier
}): Promise<FaultServer> {
  const payment = paymentOptionsFromEnv({ PINFOLD_X402_PAY_TO: '0x209693Bc6afc0C5328bA36FaF03C514EF312287C' })
  const service = createFileService({
    records: options.records,
    blobs: options.blobs,
    signingSecret: TEST_SECRET,
    embedder: options.embedder,
    textExtractor: options.textExtractor,
    ...payment,
    ...(options.payments && { payments: options.payments }),
  })
  const handler = createFetchHandler(service, { auth: createTokenVerifier({ secret: TEST_SECRET }) })
  const http = createServer(createNodeHandler(handler))
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`
  const token = (org = 'acme') => mintToken(TEST_SECRET, { sub: 'alice', org, scopes: SCOPES, expiresIn: '1h' })
  return {
    url,
    service,
    token,
    async api(path, init = {}) {
      const { org, ...rest } = init
      const headers = new Headers(rest.headers)
      headers.set('authorization', `Bearer ${await token(org)}`)
      return fetch(`${url}${path}`, { ...rest, headers })
    },
    close: () =>
      new Promise<void>((resolve) => {
        http.close(() => resolve())
        http.closeAllConnections()
      }),
  }
}

/** Files under `directory` (recursively); 0 when it does not exist. */
export function countFiles(directory: string): number {
  let count = 0
  let entries: import('node:fs').Dirent[]
  try {
    entries = readdirSync(directory, { withFileTypes: true })
  } catch {
    return 0
  }
  for (const entry of entries) {
    count += entry.isDirectory() ? countFiles(join(directory, entry.name)) : 1
  }
  return count
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
