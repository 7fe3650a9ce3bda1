import type { IncomingMessage } from 'node:http'
import { PinfoldError } from '@pinfold/interface'

/** How many bytes of a request body may wait in memory for the handler to read them. */
export const BODY_BUFFER_BYTES = 1024 * 1024

export interface RequestBody {
  stream: ReadableStream<Uint8Array>
  /** Stops feeding the stream; whatever is left of the body can then be drained and discarded. */
  detach(): void
  /** True once the client let the idle timeout pass: draining its body would wait on it forever. */
  readonly stalled: boolean
}

/**
 * A request body as a web stream that reads the socket ahead of the handler by up to
 * {@link BODY_BUFFER_BYTES}: enough to keep TCP flowing while the handler hashes a chunk, small
 * enough to keep memory bounded. (`Readable.toWeb` offers no way to detach, and
 * `ReadableStream.from` reads nothing ahead, which leaves the connection idle between chunks.)
 *
 * `idleTimeoutMs` bounds how long the body may send nothing while the handler waits for it: a
 * stalled client fails the request with `REQUEST_TIMEOUT`, and one that keeps sending is never cut,
 * however long its upload takes. Time the handler spends not reading (the body paused) never counts.
 */
export function requestBody(req: IncomingMessage, options: { idleTimeoutMs?: number | undefined } = {}): RequestBody {
  let controller: ReadableStreamDefaultController<Uint8Array>
  let attached = true
  let stalled = false
  const idle = idleTimer(options.idleTimeoutMs, () => {
    stalled = true
    const seconds = (options.idleTimeoutMs ?? 0) / 1000
    controller.error(new PinfoldError('REQUEST_TIMEOUT', `the request body sent no byte for ${seconds} s`))
    detach()
  })
  const onData = (chunk: Buffer) => {
    controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength))
    if ((controller.desiredSize ?? 0) <= 0) {
      req.pause()
      idle.stop()
    } else idle.restart()
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
    idle.stop()
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
        if (!attached) return
        // the handler wants bytes: from here on, waiting is the client's doing
        idle.restart()
        req.resume()
      },
      cancel() {
        detach()
      },
    },
    { highWaterMark: BODY_BUFFER_BYTES, size: (chunk) => chunk.byteLength },
  )
  return {
    stream,
    detach,
    get stalled() {
      return stalled
    },
  }
}

/** A restartable timer; without a timeout it does nothing. */
function idleTimer(timeoutMs: number | undefined, onIdle: () => void) {
  let timer: NodeJS.Timeout | undefined
  return {
    restart() {
      if (!timeoutMs) return
      if (timer) timer.refresh()
      else timer = setTimeout(onIdle, timeoutMs)
    },
    stop() {
      clearTimeout(timer)
      timer = undefined
    },
  }
}
