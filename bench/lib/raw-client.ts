import { connect, type Socket } from 'node:net'

export interface StalledDownload {
  socket: Socket
  /** The status of the answer, once its head has arrived; 0 when the connection ended without one. */
  status: Promise<number>
  /** Bytes received so far (head and body). */
  received(): number
  /** Whether the server closed or reset the connection. */
  ended(): boolean
}

/**
 * A GET whose client stops reading after `readBytes`: the socket is paused, so the kernel's
 * buffers fill and the server's writes must wait. A slow or stuck client, as a server meets it.
 */
export function stalledGet(url: string, path: string, readBytes: number): StalledDownload {
  const { hostname, port } = new URL(url)
  const socket = connect({ host: hostname, port: Number(port) })
  let received = 0
  let ended = false
  let head = ''
  const status = new Promise<number>((resolve) => {
    socket.on('data', (chunk: Buffer) => {
      received += chunk.length
      if (head.length < 64) {
        head += chunk.subarray(0, 64).toString('latin1')
        const match = /^HTTP\/1\.1 (\d{3})/.exec(head)
        if (match) resolve(Number(match[1]))
      }
      if (received >= readBytes) socket.pause()
    })
    const end = () => {
      ended = true
      resolve(0)
    }
    socket.once('close', end)
    socket.once('error', end)
  })
  socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\n\r\n`)
  return { socket, status, received: () => received, ended: () => ended }
}

/**
 * Sends a request head and `sendBytes` of a body announced as `declaredBytes` (or chunked), then
 * drops the connection, as a client that crashes or loses its network mid-upload. Resolves once
 * the socket is gone.
 */
export async function abortedRequest(
  url: string,
  request: { method: string; path: string; headers: Record<string, string>; body: Buffer; declaredBytes: number },
): Promise<void> {
  const { hostname, port } = new URL(url)
  const socket = connect({ host: hostname, port: Number(port) })
  socket.on('error', () => {})
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve)
    socket.once('error', reject)
  })
  const headers = { host: `${hostname}:${port}`, ...request.headers, 'content-length': String(request.declaredBytes) }
  const head = `${request.method} ${request.path} HTTP/1.1\r\n${Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')}\r\n`
  socket.write(head)
  await new Promise<void>((resolve) => socket.write(request.body, () => resolve()))
  // let the server read what was sent (and start storing it) before the connection goes
  await new Promise((resolve) => setTimeout(resolve, 20))
  socket.destroy()
  await new Promise((resolve) => (socket.closed ? resolve(undefined) : socket.once('close', resolve)))
}
