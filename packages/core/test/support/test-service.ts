import { createHash } from 'node:crypto'
import { createMemoryBlobStore, createMemoryRecordStore, type MemoryBlobStore } from '@pinfold/adapter-memory'
import {
  type Actor,
  createFileService,
  type FileService,
  type FileServiceOptions,
  type TxtResolver,
  type UploadCallOptions,
  type UploadItem,
  type UploadOptions,
  type UploadResult,
} from '../../src/index.js'

/**
 * A file service on the memory adapters with everything that varies between runs pinned down:
 * a clock the test moves, sequential ids, a signing secret and TXT records held in a Map.
 */

/** The moment every test service starts at. */
export const START = new Date('2026-01-01T00:00:00.000Z')

export const alice: Actor = { tenantId: 'acme', userId: 'alice' }
/** Another tenant: it must never see, change or use alice's records. */
export const mallory: Actor = { tenantId: 'evil', userId: 'mallory' }

export interface TestClock {
  now(): Date
  /** Moves time forward by `ms`. */
  advance(ms: number): void
}

export function testClock(start: Date = START): TestClock {
  let at = start.getTime()
  return {
    now: () => new Date(at),
    advance: (ms) => {
      at += ms
    },
  }
}

/** Ids that sort in creation order, as the UUIDv7 ids of the real service do. */
function sequentialIds() {
  let next = 0
  const id = () => String(++next).padStart(8, '0')
  return { recordId: () => `record-${id()}`, blobKey: () => `blobs/test-${id()}` }
}

export interface TestService {
  service: FileService
  blobs: MemoryBlobStore
  clock: TestClock
  /** TXT records served to domain verification, by queried name. */
  txt: Map<string, string[][]>
}

export const SIGNING_SECRET = 'a test signing secret of 32 bytes or more'

export function createTestService(overrides: Partial<FileServiceOptions> = {}): TestService {
  const clock = testClock()
  const blobs = createMemoryBlobStore()
  const txt = new Map<string, string[][]>()
  const resolveTxt: TxtResolver = async (name) => txt.get(name) ?? []
  const service = createFileService({
    records: createMemoryRecordStore(),
    blobs,
    clock,
    ids: sequentialIds(),
    signingSecret: SIGNING_SECRET,
    resolveTxt,
    ...overrides,
  })
  return { service, blobs, clock, txt }
}

export const utf8 = (text: string) => new TextEncoder().encode(text)

/** Deterministic bytes that do not repeat within a chunk, so every leaf of their DAG differs. */
export function patterned(size: number, seed = 1): Uint8Array {
  const out = new Uint8Array(size)
  let state = seed
  for (let i = 0; i < size; i++) {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0
    out[i] = state >>> 24
  }
  return out
}

/** `bytes` as a stream of chunks of at most `chunkSize` bytes, as a request body arrives. */
export async function* streamOf(bytes: Uint8Array, chunkSize = 65_536): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += chunkSize) yield bytes.subarray(at, at + chunkSize)
  if (bytes.length === 0) yield bytes
}

/** A digest to compare large byte arrays by: deep equality on them costs a second per MiB. */
export const digest = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

export async function concat(stream: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = []
  for await (const part of stream) parts.push(part)
  return new Uint8Array(Buffer.concat(parts))
}

export function fileItem(path: string, bytes: Uint8Array | string, mimeType?: string): UploadItem {
  return { kind: 'file', path, mimeType, content: streamOf(typeof bytes === 'string' ? utf8(bytes) : bytes) }
}

export async function* itemsOf(...items: UploadItem[]): AsyncGenerator<UploadItem> {
  yield* items
}

/** Uploads one file with its options after its bytes, as the Pinata SDK sends them. */
export function uploadFile(
  service: FileService,
  actor: Actor,
  bytes: Uint8Array | string,
  options: Partial<UploadOptions> = {},
  call: UploadCallOptions & { path?: string; mimeType?: string } = {},
): Promise<UploadResult> {
  const { path = 'file.bin', mimeType, ...callOptions } = call
  return service.files.upload(
    actor,
    itemsOf(fileItem(path, bytes, mimeType), { kind: 'options', options }),
    callOptions,
  )
}

/** Uploads a folder: `files` maps relative paths (sharing one top directory) to their bytes. */
export function uploadFolder(
  service: FileService,
  actor: Actor,
  files: Record<string, string | Uint8Array>,
  options: Partial<UploadOptions> = {},
): Promise<UploadResult> {
  const items = Object.entries(files).map(([path, bytes]) => fileItem(path, bytes))
  return service.files.upload(actor, itemsOf(...items, { kind: 'options', options }))
}

/** A copy of a signed URL's query with one parameter changed, or removed when `value` is undefined. */
export function withParam(query: URLSearchParams, name: string, value: string | undefined): URLSearchParams {
  const copy = new URLSearchParams(query)
  if (value === undefined) copy.delete(name)
  else copy.set(name, value)
  return copy
}

/** What a failed upload must leave behind: no blob, and no file of the actor's on either network. */
export async function storedNothing(test: TestService, actor: Actor = alice): Promise<boolean> {
  const [publicFiles, privateFiles] = await Promise.all([
    test.service.files.list(actor, 'public'),
    test.service.files.list(actor, 'private'),
  ])
  return test.blobs.count === 0 && publicFiles.files.length === 0 && privateFiles.files.length === 0
}
