import type { IncomingMessage } from 'node:http'
import { PinfoldError } from '@pinfold/core'

/** How many bytes of a request body may wait in memory for the handler to read them. */
export const BODY_BUFFER_BYTES = 1024 * 1024

export interface RequestBody {
  stream: ReadableStream<Uint8Array>
  /** Stops feeding the stream; whatever is left of the body can then be drained and discarded. */
  detach(): void
}

/**
 * A request body as a web stream that reads the socket ahead of the handler by up to
 * {@link BODY_BUFFER_BYTES}: enough to keep TCP flowing while the handler hashes a chunk, small
 * enough to keep memory bounded. (`Readable.toWeb` offers no way to detach, and
 * `ReadableStream.from` reads nothing ahead, which leaves the connection idle between chunks.)
 */
export function requestBody(req: IncomingMessage): RequestBody {
  let controller: ReadableStreamDefaultController<Uint8Array>
  let attached = true
  const onData = (chunk: Buffer) => {
    controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength))
    if ((controller.desiredSize ?? 0) <= 0) req.pause()
  }
  const onEnd = () => {
    detach()
    controller.close()
  }
  const onClose = () => {
    if (!req.complete) controller.error(new PinfoldError('ABORTED', 'the client closed the connection mid-request'))
    detach()
  }
  const detach = () => {
    if (!attached) return
    attached = false
    req.off('data', onData)
    req.off('end', onEnd)
    req.off('close', onClose)
  }
  const stream = new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c
        req.on('data', onData)
        req.on('end', onEnd)
        req.on('close', onClose)
        req.pause()
      },
      pull() {
        if (attached) req.resume()
      },
      cancel() {
        detach()
      },
    },
    { highWaterMark: BODY_BUFFER_BYTES, size: (chunk) => chunk.byteLength },
  )
  return { stream, detach }
}
