import { once } from 'node:events'
import { connect, type Socket } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from './support/server.js'

/** Everything a raw connection receives until the server closes it. */
function received(socket: Socket): Promise<string> {
  let text = ''
  socket.setEncoding('latin1')
  socket.on('data', (chunk: string) => {
    text += chunk
  })
  return new Promise((resolve) => socket.once('close', () => resolve(text)))
}

describe('graceful shutdown', () => {
  let server: TestServer | undefined
  afterEach(async () => {
    await server?.close().catch(() => {})
    server = undefined
  })

  it('close - an upload in flight completes with 200 while new requests are refused or answered 503', async () => {
    server = await startTestServer({ PINFOLD_SHUTDOWN_TIMEOUT_MS: '20000' })
    const { port } = new URL(server.url)
    const token = await server.token()
    const boundary = 'pinfold-boundary'
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.txt"\r\nContent-Type: text/plain\r\n\r\n`
    const payload = 'x'.repeat(64 * 1024)
    const tail = `\r\n--${boundary}--\r\n`
    const length = Buffer.byteLength(head + payload + tail)

    // a second connection whose request has begun (headers not finished) before the shutdown
    const late = connect(Number(port), '127.0.0.1')
    await once(late, 'connect')
    const lateAnswer = received(late)
    late.write('GET /healthz HTTP/1.1\r\nHost: pinfold.test\r\n')

    const uploadSocket = connect(Number(port), '127.0.0.1')
    await once(uploadSocket, 'connect')
    const uploadAnswer = received(uploadSocket)
    const started = once(server.running.server, 'request')
    uploadSocket.write(
      `POST /v3/files HTTP/1.1\r\nHost: pinfold.test\r\nAuthorization: Bearer ${token}\r\n` +
        `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${length}\r\n\r\n${head}${payload.slice(0, 1000)}`,
    )
    await started

    const closing = server.running.close()
    // the listener is gone: a new connection is refused
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow()
    // a request that arrives on an open connection during the shutdown is answered 503
    late.write('\r\n')
    const refused = await lateAnswer
    expect(refused).toMatch(/^HTTP\/1\.1 503 /)
    expect(refused).toMatch(/\r\nconnection: close\r\n/i)
    expect(refused).toContain('shutting down')

    // the upload in flight finishes, and its connection is not kept for another request
    uploadSocket.write(`${payload.slice(1000)}${tail}`)
    const answer = await uploadAnswer
    expect(answer).toMatch(/^HTTP\/1\.1 200 /)
    expect(answer).toMatch(/\r\nconnection: close\r\n/i)
    expect(answer).toContain('"is_duplicate":false')
    await closing
  })

  it('close - with nothing in flight it resolves and the stores are closed', async () => {
    server = await startTestServer()
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200)
    await server.running.close()
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow()
  })
})
