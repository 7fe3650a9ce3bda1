import { type Server, STATUS_CODES } from 'node:http'
import type { Duplex } from 'node:stream'

/** What node:http's parser refused, as the status and message a client reads. */
function describe(code: string | undefined): [number, string] {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return [431, 'request headers are too large']
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [408, 'the request took too long to arrive']
    default:
      return [400, 'malformed HTTP request']
  }
}

/**
 * Requests node:http refuses before any handler runs (oversized headers, a broken request line,
 * bad chunked framing) are answered `{"error": "…"}` like every other 4xx, instead of Node's
 * empty default reply, and the connection is closed.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage
    if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy()
      return
    }
    const [status, message] = describe(error.code)
    const body = JSON.stringify({ error: message })
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\n` +
        `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    )
  })
}
