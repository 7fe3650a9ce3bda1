import { detectMimeType, type GatewayEntry, mimeTypeFromName, sniffedTypeOf } from '@pinfold/core'
import { concatBytes } from '../bytes.js'
import { rememberBody } from '../response-body.js'
import { errorBody } from '../responses.js'

/** Headers on every gateway answer: user content must never run as the API's origin. */
export const GATEWAY_SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': 'sandbox',
  'cross-origin-resource-policy': 'cross-origin',
} as const

export const IMMUTABLE = 'public, max-age=29030400, immutable'

/** The gateway's answer to a method other than GET and HEAD (the fetch handler's, for its routes). */
export function gatewayMethodNotAllowed(method: string): Response {
  return errorBody(`method ${method} not allowed on the gateway`, 405, { allow: 'GET, HEAD' })
}

/** A pull-based stream over an async iterable: one chunk per read, and cancel stops the source. */
export function toStream(source: AsyncIterable<Uint8Array>): ReadableStream<Uint8Array> {
  return iteratorStream(source[Symbol.asyncIterator]())
}

function iteratorStream(iterator: AsyncIterator<Uint8Array>, first: Uint8Array[] = []): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const held = first.shift()
      if (held) return controller.enqueue(held)
      try {
        const next = await iterator.next()
        if (next.done) controller.close()
        else controller.enqueue(next.value)
      } catch (error) {
        controller.error(error)
      }
    },
    async cancel() {
      await iterator.return?.()
    },
  })
}

/**
 * Up to this many bytes of a body are read before its status is sent. A body that ends within them
 * goes out in one write with its headers (`rememberBody`) rather than as a stream passed through
 * the body counters and the node bridge chunk by chunk, which costs more than the bytes for a small
 * file or CAR (most of a gateway's traffic); a body that fails within them (a DAG that spends its
 * work budget, a missing blob) answers with its error instead of a 200 cut short. Bounded, so
 * never a large allocation.
 */
const READ_AHEAD_BYTES = 64 * 1024

/** A response over `source`, read ahead as {@link READ_AHEAD_BYTES} says; longer bodies stream on. */
export async function readAheadResponse(source: AsyncIterable<Uint8Array>, init: ResponseInit): Promise<Response> {
  const iterator = source[Symbol.asyncIterator]()
  const chunks: Uint8Array[] = []
  let bytes = 0
  try {
    while (bytes <= READ_AHEAD_BYTES) {
      const next = await iterator.next()
      if (next.done) {
        const body = chunks.length === 1 ? chunks[0]! : concatBytes(chunks)
        return rememberBody(new Response(body, init), body)
      }
      chunks.push(next.value)
      bytes += next.value.byteLength
    }
  } catch (error) {
    await iterator.return?.()
    throw error
  }
  return new Response(iteratorStream(iterator, chunks), init)
}

/** Whether `If-None-Match` names this ETag (or `*`). */
export function notModified(request: Request, etag: string): boolean {
  const header = request.headers.get('if-none-match')
  if (!header) return false
  const bare = etag.replace(/^W\//, '')
  return header
    .split(',')
    .map((tag) => tag.trim())
    .some((tag) => tag === '*' || tag.replace(/^W\//, '') === bare)
}

export type RangeRequest =
  | { kind: 'none' }
  | { kind: 'range'; offset: number; length: number }
  | { kind: 'unsatisfiable' }

/**
 * A `bytes=` range against `size` (RFC 9110): `a-b`, `a-`, `-n`. Of several ranges the first that
 * can be satisfied is served alone, as a 206 with its `Content-Range` (the path-gateway spec allows
 * the first range or `multipart/byteranges`): one range streams straight from the DAG, and every
 * client that asks for several handles the single-range answer. A malformed header is ignored
 * (the whole content is sent), as the RFC allows; no satisfiable range at all is a 416.
 */
export function parseRange(header: string | null, size: number): RangeRequest {
  if (!header) return { kind: 'none' }
  const specs = /^bytes=(.+)$/.exec(header.trim())?.[1]?.split(',')
  if (!specs) return { kind: 'none' }
  const ranges = specs.map((spec) => parseRangeSpec(spec.trim(), size))
  if (ranges.some((range) => range === undefined)) return { kind: 'none' }
  return ranges.find((range) => range?.kind === 'range') ?? { kind: 'unsatisfiable' }
}

/** One `a-b`, `a-` or `-n` of a `bytes=` header; `undefined` when malformed. */
function parseRangeSpec(spec: string, size: number): RangeRequest | undefined {
  const match = /^(\d*)-(\d*)$/.exec(spec)
  if (!match || (match[1] === '' && match[2] === '')) return undefined
  let start: number
  let end: number
  if (match[1] === '') {
    const suffix = Number(match[2])
    if (suffix === 0) return { kind: 'unsatisfiable' }
    start = Math.max(0, size - suffix)
    end = size - 1
  } else {
    start = Number(match[1])
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1)
    if (match[2] !== '' && Number(match[2]) < start) return undefined
  }
  if (start >= size || size === 0) return { kind: 'unsatisfiable' }
  return { kind: 'range', offset: start, length: end - start + 1 }
}

/** `inline` or `attachment` with an ASCII fallback name and the exact UTF-8 name (RFC 6266). */
export function contentDisposition(kind: 'inline' | 'attachment', filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_')
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`
}

/** The type from the name when it says something, else sniffed from the first bytes. */
export async function chooseContentType(
  name: string | undefined,
  entry: Extract<GatewayEntry, { type: 'file' }>,
  signal: AbortSignal,
): Promise<string> {
  const byName = name ? mimeTypeFromName(name) : undefined
  if (byName) return withCharset(byName)
  if (entry.size === 0) return 'text/plain; charset=utf-8'
  return sniffedTypeOf(entry.cid.toString(), () => sniff(entry, signal))
}

async function sniff(entry: Extract<GatewayEntry, { type: 'file' }>, signal: AbortSignal): Promise<string> {
  const head: Uint8Array[] = []
  for await (const chunk of await entry.read({ offset: 0, length: Math.min(entry.size, SNIFF_BYTES) }, { signal })) {
    head.push(chunk)
  }
  const bytes = concatBytes(head)
  const sniffed = await detectMimeType(bytes, undefined, '')
  if (sniffed === 'text/plain' && entry.size <= SNIFF_BYTES && isJsonDocument(bytes)) return 'application/json'
  return withCharset(sniffed)
}

/** How much of a nameless file is read to tell its type. */
const SNIFF_BYTES = 4100

/**
 * A whole file (read in full for sniffing) that is a JSON object or array: served as
 * `application/json` (what the path-gateway suite expects of JSON stored in UnixFS, asked for by CID).
 */
function isJsonDocument(bytes: Uint8Array): boolean {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
    return /^\s*[[{]/.test(text) && typeof JSON.parse(text) === 'object'
  } catch {
    return false
  }
}

function withCharset(type: string): string {
  return type.startsWith('text/') && !type.includes('charset') ? `${type}; charset=utf-8` : type
}

/**
 * A deserialized file: ETag/304, Range (206/416; the first of several), Content-Type, Content-Disposition;
 * bytes are only read for GET, and only the range asked for.
 */
export async function fileResponse(
  request: Request,
  entry: Extract<GatewayEntry, { type: 'file' }>,
  options: {
    etag: string
    headers: Record<string, string>
    /** Name for Content-Type and Content-Disposition. */
    name?: string | undefined
    contentType?: string | undefined
    disposition?: string | undefined
  },
): Promise<Response> {
  const headers = new Headers({ ...GATEWAY_SECURITY_HEADERS, ...options.headers, etag: options.etag })
  headers.set('accept-ranges', 'bytes')
  if (options.disposition) headers.set('content-disposition', options.disposition)
  if (notModified(request, options.etag)) return new Response(null, { status: 304, headers })
  headers.set('content-type', options.contentType ?? (await chooseContentType(options.name, entry, request.signal)))
  const range = applyRange(request, headers, entry.size)
  if (range instanceof Response) return range
  if (request.method === 'HEAD') return new Response(null, { status: range.status, headers })
  if (range.length === 0) return new Response(null, { status: range.status, headers })
  const bytes = await entry.read({ offset: range.offset, length: range.length }, { signal: request.signal })
  return readAheadResponse(bytes, { status: range.status, headers })
}

/**
 * Applies the request's `Range` (its first satisfiable range) to content of `size` bytes: sets Content-Range and
 * Content-Length on `headers` and gives the status and slice to send, or the 416 answer.
 */
export function applyRange(
  request: Request,
  headers: Headers,
  size: number,
): Response | { status: 200 | 206; offset: number; length: number } {
  const range = parseRange(request.headers.get('range'), size)
  if (range.kind === 'unsatisfiable') {
    headers.set('content-range', `bytes */${size}`)
    headers.set('content-type', 'application/json; charset=utf-8')
    headers.delete('content-length')
    return new Response(JSON.stringify({ error: 'requested range not satisfiable' }), { status: 416, headers })
  }
  const offset = range.kind === 'range' ? range.offset : 0
  const length = range.kind === 'range' ? range.length : size
  if (range.kind === 'range') headers.set('content-range', `bytes ${offset}-${offset + length - 1}/${size}`)
  headers.set('content-length', String(length))
  return { status: range.kind === 'range' ? 206 : 200, offset, length }
}
