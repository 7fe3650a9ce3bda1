import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export type Behaviour = 'ok' | 'invalid' | 'settle-fails' | 'verify-hangs' | 'settle-hangs' | 'settle-500'

export const TX = `0x${'ab'.repeat(32)}`

/** A local facilitator speaking the x402 protocol (`POST /verify`, `POST /settle`), scripted per test. */
export function createFacilitator() {
  const calls: { path: string; body: Record<string, unknown> }[] = []
  const hanging: ServerResponse[] = []
  let behaviour: Behaviour = 'ok'
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let text = ''
    req.on('data', (chunk) => {
      text += chunk
    })
    req.on('end', () => {
      const body = JSON.parse(text) as Record<string, unknown>
      calls.push({ path: req.url ?? '', body })
      const payer = (body.paymentPayload as { payload: { authorization: { from: string } } }).payload.authorization
        .from as string
      const reply = (status: number, value: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value))
      if (req.url === '/verify') {
        if (behaviour === 'verify-hangs') return void hanging.push(res)
        if (behaviour === 'invalid') return reply(200, { isValid: false, invalidReason: 'insufficient_funds', payer })
        return reply(200, { isValid: true, payer })
      }
      if (req.url === '/settle') {
        if (behaviour === 'settle-hangs') return void hanging.push(res)
        if (behaviour === 'settle-500') return reply(500, { error: 'boom' })
        if (behaviour === 'settle-fails') {
          return reply(200, {
            success: false,
            errorReason: 'insufficient_funds',
            transaction: '',
            network: 'base-sepolia',
          })
        }
        return reply(200, { success: true, transaction: TX, network: 'base-sepolia', payer })
      }
      reply(404, {})
    })
  })
  return {
    server,
    calls,
    /** Listens on a loopback port; resolves to the facilitator's URL. */
    async listen(): Promise<string> {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    },
    async close() {
      for (const res of hanging.splice(0)) res.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
    set(next: Behaviour) {
      behaviour = next
      calls.length = 0
    },
    release() {
      for (const res of hanging.splice(0)) res.destroy()
    },
  }
}
