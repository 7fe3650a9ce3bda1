import type { Readable } from 'node:stream'
import { invalid, isPinfoldError, PinfoldError } from '@pinfold/core'
import busboy from 'busboy'
import { readableChunks } from './readable-chunks.js'

export type MultipartPart =
  | { kind: 'field'; name: string; value: string }
  | { kind: 'file'; name: string; filename: string; mimeType: string; content: AsyncIterable<Uint8Array> }

export const MULTIPART_LIMITS = {
  fields: 200,
  fieldSize: 1024 * 1024,
  parts: 20_000,
  headerPairs: 100,
} as const

type Event =
  | { type: 'part'; part: MultipartPart; stream?: Readable }
  | { type: 'end' }
  | { type: 'error'; error: unknown }

/**
 * Parses a multipart/form-data body with busboy as a sequence of parts in arrival order. A file
 * part's content streams straight from the socket: busboy produces the next part only after the
 * current one has been read, so no part is ever buffered whole. Breaking off the iteration
 * destroys the body stream.
 */
export async function* parseMultipart(request: Request): AsyncGenerator<MultipartPart> {
  const contentType = request.headers.get('content-type') ?? ''
  if (!request.body) throw invalid('multipart body is empty')
  let parser: busboy.Busboy
  try {
    parser = busboy({
      headers: { 'content-type': contentType },
      limits: MULTIPART_LIMITS,
      // keep the relative paths of folder uploads (busboy strips directories by default)
      preservePath: true,
      defParamCharset: 'utf8',
      // let a file part run ahead of its consumer by a few chunks, so parsing and hashing overlap
      fileHwm: 1024 * 1024,
      highWaterMark: 1024 * 1024,
    })
  } catch (cause) {
    throw new PinfoldError('INVALID_INPUT', 'Content-Type must be multipart/form-data with a boundary', { cause })
  }

  const events: Event[] = []
  let wake: (() => void) | undefined
  const push = (event: Event) => {
    events.push(event)
    wake?.()
  }
  const tooMany = (what: string) => () =>
    push({ type: 'error', error: new PinfoldError('PAYLOAD_TOO_LARGE', `too many ${what} in the multipart body`) })

  parser.on('field', (name, value, info) => {
    if (info.nameTruncated || info.valueTruncated) {
      push({ type: 'error', error: invalid(`multipart field ${name} exceeds ${MULTIPART_LIMITS.fieldSize} bytes`) })
    } else push({ type: 'part', part: { kind: 'field', name, value } })
  })
  parser.on('file', (name, stream, info) => {
    // The part's reader sees any failure of this stream through its iterator; a part nobody reads
    // (the upload was refused first) would otherwise turn a cut-off body into an uncaught error.
    stream.on('error', () => {})
    push({
      type: 'part',
      part: {
        kind: 'file',
        name,
        filename: info.filename ?? '',
        mimeType: info.mimeType,
        content: codedErrors(stream),
      },
      stream,
    })
  })
  parser.on('partsLimit', tooMany('parts'))
  parser.on('fieldsLimit', tooMany('fields'))
  parser.on('close', () => push({ type: 'end' }))
  parser.on('error', (cause) =>
    push({ type: 'error', error: new PinfoldError('INVALID_INPUT', 'malformed multipart body', { cause }) }),
  )

  const reader = request.body.getReader()
  void feed(reader, parser).catch((cause: unknown) => {
    const error = isPinfoldError(cause) ? cause : new PinfoldError('ABORTED', 'the request body ended early', { cause })
    // destroying the parser also fails the file stream a consumer may be waiting on
    parser.destroy(error)
    push({ type: 'error', error })
  })

  try {
    for (;;) {
      if (events.length === 0) await new Promise<void>((resolve) => (wake = resolve))
      wake = undefined
      const event = events.shift()!
      if (event.type === 'end') return
      if (event.type === 'error') throw event.error
      yield event.part
      // A consumer that skipped a file part still has to let busboy move past its bytes.
      if (event.stream && !event.stream.readableEnded) event.stream.resume()
    }
  } finally {
    await reader.cancel().catch(() => {})
    parser.removeAllListeners()
    parser.on('error', () => {})
  }
}

/** Writes the body into busboy with backpressure; stops quietly once the parser is done or destroyed. */
async function feed(reader: ReadableStreamDefaultReader<Uint8Array>, parser: busboy.Busboy): Promise<void> {
  for (;;) {
    const { done, value } = await reader.read()
    if (parser.destroyed || parser.writableEnded) return
    if (done) {
      parser.end()
      return
    }
    if (!parser.write(value)) {
      await new Promise<void>((resolve) => {
        const settle = () => {
          parser.off('drain', settle)
          parser.off('close', settle)
          resolve()
        }
        parser.on('drain', settle)
        parser.on('close', settle)
      })
    }
  }
}

/** A file stream fails when the body is malformed or cut off: report that as the client's fault. */
async function* codedErrors(stream: Readable): AsyncGenerator<Uint8Array> {
  try {
    yield* readableChunks(stream)
  } catch (cause) {
    if (isPinfoldError(cause)) throw cause
    throw new PinfoldError('INVALID_INPUT', 'malformed multipart body', { cause })
  }
}
