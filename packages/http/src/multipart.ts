import { invalid, isPinfoldError, PinfoldError } from '@pinfold/core'
import * as Multipasta from 'multipasta'

export type MultipartPart =
  | { kind: 'field'; name: string; value: string }
  | { kind: 'file'; name: string; filename: string; mimeType: string; content: AsyncIterable<Uint8Array> }

/**
 * What one multipart body may hold. `parts` and `fieldSize` are enforced by multipasta, `fields`
 * here; a part's headers are capped by multipasta itself (16 KiB, 100 lines, not configurable).
 */
export const MULTIPART_LIMITS = {
  fields: 200,
  fieldSize: 1024 * 1024,
  parts: 20_000,
} as const

/** What the parser produced from the bytes written so far, in body order. */
type Event =
  | { type: 'field'; part: MultipartPart & { kind: 'field' } }
  | { type: 'file'; part: FilePart }
  | { type: 'chunk'; chunk: Uint8Array }
  | { type: 'file-end' }
  | { type: 'error'; error: PinfoldError }
  | { type: 'done' }

interface FilePart {
  readonly part: MultipartPart & { kind: 'file' }
  /** Every chunk of the part went by (read by its consumer, or skipped). */
  ended: boolean
  /** The next part was asked for while this one was unread: its bytes were skipped. */
  skipped: boolean
}

/** The part `multipasta` is on: its Content-Disposition, read by {@link describePart}. */
interface PartDescription {
  formData: boolean
  name: string
  filename: string | undefined
}

/**
 * Parses a multipart/form-data body as a sequence of parts in arrival order, on web streams only,
 * with `multipasta` (a push parser: bytes in, callbacks out). Nothing is read ahead of the
 * consumer: the next chunk of the body is read and parsed only when the consumer asks for a part
 * or for a file's next bytes, so a file part's content streams straight from the request body, as
 * zero-copy views of its chunks, and is never buffered whole. Skipping a file part (asking for the
 * next part first) reads past its bytes. Breaking off the iteration cancels the body.
 *
 * Failures are `PinfoldError`s: a malformed or truncated body `INVALID_INPUT`, too many parts or
 * fields `PAYLOAD_TOO_LARGE`, a body that fails or is cut off by the client `ABORTED` (or the
 * body's own error, such as the bridge's `REQUEST_TIMEOUT`).
 */
export async function* parseMultipart(request: Request): AsyncGenerator<MultipartPart> {
  const contentType = request.headers.get('content-type') ?? ''
  const { type, params } = headerParameters(contentType)
  const boundary = params.get('boundary')
  if (type !== 'multipart/form-data' || !boundary) {
    throw invalid('Content-Type must be multipart/form-data with a boundary')
  }
  if (!request.body) throw invalid('multipart body is empty')
  const write = closingDelimiterGuard(boundary)

  const events: Event[] = []
  let current: PartDescription | undefined
  let fields = 0
  let finished = false
  let failed = false
  const fail = (error: PinfoldError) => {
    if (failed) return
    failed = true
    events.push({ type: 'error', error })
  }
  const dropChunk = () => {}

  const parser = Multipasta.make({
    headers: { 'content-type': contentType },
    maxParts: MULTIPART_LIMITS.parts,
    maxFieldSize: MULTIPART_LIMITS.fieldSize,
    // As busboy did: a part with a non-empty filename is a file, anything else a field. Reading
    // the disposition here (not multipasta's `info.filename`) keeps raw UTF-8 names beyond Latin-1.
    isFile: (info) => {
      current = describePart(info)
      // a part that is not form-data (no disposition) is skipped, as a file nobody reads
      return !current.formData || current.filename !== undefined
    },
    onField: (info, value) => {
      if (failed || finished) return
      if (++fields > MULTIPART_LIMITS.fields) {
        fail(new PinfoldError('PAYLOAD_TOO_LARGE', 'too many fields in the multipart body'))
        return
      }
      const name = current?.name ?? ''
      events.push({ type: 'field', part: { kind: 'field', name, value: Multipasta.decodeField(info, value) } })
    },
    onFile: (info) => {
      if (failed || finished || !current?.formData) return dropChunk
      const file: FilePart = {
        part: {
          kind: 'file',
          name: current.name,
          filename: current.filename ?? '',
          // RFC 7578's default for a part without Content-Type, as busboy answered
          mimeType: info.headers['content-type'] === undefined ? 'text/plain' : info.contentType,
          content: fileContent(() => file),
        },
        ended: false,
        skipped: false,
      }
      events.push({ type: 'file', part: file })
      return (chunk) => {
        if (failed) return
        events.push(chunk === null ? { type: 'file-end' } : { type: 'chunk', chunk })
      }
    },
    onError: (error) => {
      if (finished) return
      // a form-data part without a name: skipped, as busboy did (multipasta skips its body)
      if (error._tag === 'InvalidDisposition') return
      fail(multipartError(error, current))
    },
    onDone: () => {
      if (failed || finished) return
      finished = true
      events.push({ type: 'done' })
    },
  })

  const reader = request.body.getReader()
  let reading: Promise<void> | undefined

  /** Reads one chunk of the body into the parser (one read at a time, whoever asks). */
  const readMore = () => {
    reading ??= (async () => {
      let chunk: Awaited<ReturnType<typeof reader.read>>
      try {
        chunk = await reader.read()
      } catch (cause) {
        fail(isPinfoldError(cause) ? cause : new PinfoldError('ABORTED', 'the request body ended early', { cause }))
        return
      }
      if (failed || finished) return
      try {
        if (!chunk.done) write(parser, chunk.value)
        else {
          write(parser, undefined)
          parser.end()
          // multipasta reports a body cut off inside a part; one cut off anywhere else (in a part's
          // headers, or before any boundary) just never reaches the closing boundary
          if (!finished) fail(invalid('malformed multipart body: it ends before its closing boundary'))
        }
      } catch (cause) {
        // multipasta throws a URIError for a `filename*` that is not percent-encoded UTF-8
        const what = cause instanceof URIError ? ': a filename* is not percent-encoded UTF-8' : ''
        fail(new PinfoldError('INVALID_INPUT', `malformed multipart body${what}`, { cause }))
      }
    })().finally(() => {
      reading = undefined
    })
    return reading
  }

  /** The next event, reading and parsing as much of the body as it takes. Failures stick. */
  const next = async (): Promise<Event> => {
    for (;;) {
      const event = events.shift()
      if (event) {
        if (event.type === 'error') events.unshift(event) // every later read sees it too
        return event
      }
      await readMore()
    }
  }

  /** A file part's bytes, as the parser finds them; `file` is read once the part exists. */
  async function* fileContent(self: () => FilePart): AsyncGenerator<Uint8Array> {
    const file = self()
    for (;;) {
      if (file.skipped) throw new Error('multipart file part read after the next part was asked for')
      if (file.ended) return
      const event = await next()
      if (event.type === 'error') throw event.error
      if (event.type === 'chunk') yield event.chunk
      else if (event.type === 'file-end') file.ended = true
    }
  }

  let open: FilePart | undefined
  try {
    for (;;) {
      if (open && !open.ended) {
        // the consumer moved on without reading the whole file: read past the rest of it
        open.skipped = true
        for (let event = await next(); event.type !== 'file-end'; event = await next()) {
          if (event.type === 'error') throw event.error
        }
        open.ended = true
      }
      const event = await next()
      if (event.type === 'error') throw event.error
      if (event.type === 'done') return
      if (event.type === 'field') yield event.part
      else if (event.type === 'file') {
        open = event.part
        yield open.part
      }
    }
  } finally {
    await reader.cancel().catch(() => {})
  }
}

const DASH = 0x2d

/**
 * Writes body chunks into multipasta, working around its one known framing bug (0.2.8): when a
 * write ends one `-` into the closing delimiter (`\r\n--{boundary}-`, the second `-` coming with
 * the next chunk), it takes that lone `-` for the start of a part's headers and refuses a valid
 * body. So a chunk ending in the closing delimiter's first `-`, or a chunk too short to tell that
 * ends in `-`, keeps its trailing dashes back for the next write, where multipasta sees `--` whole.
 * Such chunks are rare (the end of a body, or tiny ones) and nothing is copied here (multipasta
 * itself joins a short write to the next one). `chunk` undefined: the body ended; write what is left.
 */
function closingDelimiterGuard(boundary: string) {
  const closing = new TextEncoder().encode(`\r\n--${boundary}-`)
  let held: Uint8Array | undefined
  const endsWithClosing = (chunk: Uint8Array) => {
    const start = chunk.length - closing.length
    for (let i = 0; i < closing.length; i++) if (chunk[start + i] !== closing[i]) return false
    return true
  }
  return (parser: Multipasta.Parser, chunk: Uint8Array | undefined) => {
    if (held) parser.write(held)
    held = undefined
    if (!chunk || chunk.length === 0) return
    if (chunk[chunk.length - 1] === DASH && (chunk.length < closing.length || endsWithClosing(chunk))) {
      let cut = chunk.length - 1
      while (cut > 0 && chunk[cut - 1] === DASH) cut--
      held = chunk.subarray(cut)
      chunk = chunk.subarray(0, cut)
    }
    if (chunk.length > 0) parser.write(chunk)
  }
}

/** A part's name and filename from its Content-Disposition (RFC 7578; `filename*` per RFC 8187). */
function describePart(info: Multipasta.PartInfo): PartDescription {
  const header = info.headers['content-disposition']
  const { type, params } = headerParameters(typeof header === 'string' ? header : (header?.[0] ?? ''))
  // an empty filename (a form's file input left empty) makes a field, as with busboy
  const filename = decodeExtValue(params.get('filename*')) ?? params.get('filename')
  return { formData: type === 'form-data', name: params.get('name') ?? '', filename: filename || undefined }
}

/**
 * The type and parameters of a header value such as `form-data; name="file"; filename="a b.txt"`,
 * read as busboy read them: names lower-cased, quoted strings unescaped and kept whole (spaces
 * included), any character in them (a browser sends a file's name as raw UTF-8). multipasta's own
 * reading drops every parameter of a header holding a character above U+00FF (fixed upstream,
 * unreleased), and `@remix-run/headers` trims quoted values, so neither is used for names.
 */
function headerParameters(value: string): { type: string; params: Map<string, string> } {
  const semicolon = value.indexOf(';')
  const type = (semicolon === -1 ? value : value.slice(0, semicolon)).trim().toLowerCase()
  const params = new Map<string, string>()
  const param = /;\s*([^\s=;]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))\s*/y
  param.lastIndex = semicolon === -1 ? value.length : semicolon
  for (let match = param.exec(value); match; match = param.exec(value)) {
    const name = match[1]!.toLowerCase()
    const quoted = match[2]
    if (!params.has(name)) params.set(name, quoted !== undefined ? quoted.replace(/\\(.)/g, '$1') : match[3]!.trim())
  }
  return { type, params }
}

/** An RFC 8187 ext-value (`UTF-8''%E2%82%AC.txt`) decoded in its charset; undefined when it does not decode. */
function decodeExtValue(value: string | undefined): string | undefined {
  const match = value === undefined ? null : /^([\w!#$%&+^`{}~-]+)'[^']*'(.*)$/.exec(value)
  if (!match) return undefined
  try {
    const bytes = Uint8Array.from(
      match[2]!.replace(/%([0-9a-f]{2})|(.)/gis, (_, hex: string | undefined, char: string) =>
        String.fromCharCode(hex ? Number.parseInt(hex, 16) : char.charCodeAt(0) & 0xff),
      ),
      (char) => char.charCodeAt(0),
    )
    return new TextDecoder(match[1]!, { fatal: true }).decode(bytes)
  } catch {
    return undefined // an unknown charset, or bytes that are not text in it
  }
}

function multipartError(error: Multipasta.MultipartError, part: PartDescription | undefined): PinfoldError {
  switch (error._tag) {
    case 'InvalidBoundary':
      return invalid('Content-Type must be multipart/form-data with a boundary')
    case 'BadHeaders':
      return invalid(`malformed multipart body: part headers (${error.error.reason})`)
    case 'EndNotReached':
      return invalid('malformed multipart body: it ends before its closing boundary')
    case 'ReachedLimit':
      if (error.limit === 'MaxParts')
        return new PinfoldError('PAYLOAD_TOO_LARGE', 'too many parts in the multipart body')
      if (error.limit === 'MaxFieldSize')
        return invalid(`multipart field ${part?.name ?? ''} exceeds ${MULTIPART_LIMITS.fieldSize} bytes`)
      return new PinfoldError('PAYLOAD_TOO_LARGE', 'the multipart body is too large')
    default:
      return invalid('malformed multipart body')
  }
}
