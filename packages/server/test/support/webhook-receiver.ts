import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders
  body: string
  at: number
}

/** How the receiver answers one request: a status, or never (the connection hangs). */
export type Answer = number | 'hang'

/**
 * A webhook receiver as a tenant would run one: a real node:http server on loopback that records
 * every request (headers and raw body, what a signature is checked over) and answers each with the
 * next of `answers` (then 204), or never, to play a dead endpoint.
 */
export async function startWebhookReceiver(answers: Answer[] = []): Promise<{
  url: string
  received: ReceivedWebhook[]
  close(): Promise<void>
}> {
  const received: ReceivedWebhook[] = []
  const pending = [...answers]
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() })
      const answer = pending.shift() ?? 204
      if (answer === 'hang') return
      res.writeHead(answer, { 'content-type': 'text/plain' }).end(answer >= 300 ? 'not now' : '')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    async close() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
