import { once } from 'node:events'
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { S3Client } from '@aws-sdk/client-s3'
import { testClient } from './s3-test-server.js'

export interface FakeAnswer {
  status: number
  /** XML body, or an object's bytes; omitted for HEAD requests, which have none. */
  body?: string | Uint8Array
  /** Headers beside `content-type: application/xml`. */
  headers?: Record<string, string>
}

/** A scripted S3 on 127.0.0.1: every request, once its body is read, gets `answer(request)`. */
export async function startFakeS3(answer: (req: IncomingMessage) => FakeAnswer) {
  const server = createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      const { status, body, headers } = answer(req)
      res.writeHead(status, { 'content-type': 'application/xml', ...headers })
      res.end(req.method === 'HEAD' ? undefined : body)
    })
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const port = (server.address() as AddressInfo).port
  return {
    port,
    async close() {
      server.close()
      await once(server, 'close')
    },
  }
}

/** No retries: each call sees the first answer, and no test waits for a backoff. */
export function fakeClient(port: number): S3Client {
  return testClient(
    { endpoint: `http://127.0.0.1:${port}`, region: 'us-east-1', accessKeyId: 'test', secretAccessKey: 'test' },
    { maxAttempts: 1 },
  )
}

export function errorXml(code: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>fake ${code}</Message></Error>`
}
