import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { wrapFetchWithPayment as wrapFetchV1 } from 'x402-fetch'
import {
  decodeHeader,
  type PaidServer,
  priceCid,
  randomAccount,
  signedHeader,
  startPaidServer,
  uploadPrivate,
} from './support/payments.js'

type Behaviour = 'ok' | 'invalid' | 'settle-fails' | 'verify-hangs' | 'settle-hangs' | 'settle-500'

const TX = `0x${'ab'.repeat(32)}`

/** A local facilitator speaking the x402 protocol (`POST /verify`, `POST /settle`), scripted per test. */
function createFacilitator() {
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
    set(next: Behaviour) {
      behaviour = next
      calls.length = 0
    },
    release() {
      for (const res of hanging.splice(0)) res.destroy()
    },
  }
}

describe('paid retrieval through a facilitator (PINFOLD_X402_FACILITATOR_URL)', () => {
  const facilitator = createFacilitator()
  let server: PaidServer
  let cid: string
  let path: string

  beforeAll(async () => {
    await new Promise<void>((resolve) => facilitator.server.listen(0, '127.0.0.1', resolve))
    const { port } = facilitator.server.address() as AddressInfo
    server = await startPaidServer({
      env: { PINFOLD_X402_FACILITATOR_URL: `http://127.0.0.1:${port}`, PINFOLD_X402_FACILITATOR_TIMEOUT_MS: '300' },
    })
    cid = await uploadPrivate(server, 'settled bytes')
    await priceCid(server, cid)
    path = `/v1/retrieve/private/${cid}`
  })
  afterAll(async () => {
    facilitator.release()
    await server.close()
    await new Promise<void>((resolve) => facilitator.server.close(() => resolve()))
  })
  beforeEach(() => facilitator.release())

  const pay = async (headers: Record<string, string>) => fetch(`${server.url}${path}`, { headers })
  const header = async () => {
    const { name, value } = await signedHeader({ account: randomAccount(), resource: `${server.url}${path}` })
    return { [name]: value }
  }

  it('retrievePrivate - verifies, then settles before revealing the link; the settlement header carries the transaction', async () => {
    facilitator.set('ok')
    const account = randomAccount()
    const res = await wrapFetchV1(fetch, account, 1000n)(`${server.url}${path}`, { method: 'GET' })
    expect(res.status).toBe(200)
    expect(facilitator.calls.map((c) => c.path)).toEqual(['/verify', '/settle'])
    expect(facilitator.calls[1]!.body).toMatchObject({
      x402Version: 1,
      paymentPayload: { x402Version: 1, scheme: 'exact', network: 'base-sepolia' },
      paymentRequirements: { maxAmountRequired: '100', resource: `${server.url}${path}` },
    })
    expect(decodeHeader(res.headers.get('x-payment-response'))).toEqual({
      success: true,
      transaction: TX,
      network: 'base-sepolia',
      payer: account.address,
    })
    const { url } = (await res.json()) as { url: string }
    expect(await (await fetch(url)).text()).toBe('settled bytes')
  })

  it('retrievePrivate - isValid: false is a 402 with the reason and nothing is settled', async () => {
    facilitator.set('invalid')
    const res = await pay(await header())
    expect(res.status).toBe(402)
    expect(((await res.json()) as { error: string }).error).toBe('insufficient_funds')
    expect(facilitator.calls.map((c) => c.path)).toEqual(['/verify'])
  })

  it('retrievePrivate - settle success: false is a 402 with the reason, no link, and the payment cannot be replayed', async () => {
    facilitator.set('settle-fails')
    const headers = await header()
    const res = await pay(headers)
    expect(res.status).toBe(402)
    const body = (await res.json()) as { error: string; url?: string }
    expect(body).toMatchObject({ error: 'insufficient_funds' })
    expect(body.url).toBeUndefined()
    facilitator.set('ok')
    const replay = await pay(headers)
    expect(replay.status).toBe(402)
    expect(((await replay.json()) as { error: string }).error).toBe('invalid_exact_evm_nonce_already_used')
  })

  it('retrievePrivate - a verify timeout is a 503 without a link, and the payment can be retried once the facilitator is back', async () => {
    facilitator.set('verify-hangs')
    const headers = await header()
    const res = await pay(headers)
    expect(res.status).toBe(503)
    const body = (await res.json()) as { error: string; url?: string }
    expect(body.error).toMatch(/facilitator \/verify timed out/)
    expect(body.url).toBeUndefined()
    facilitator.release()
    facilitator.set('ok')
    expect((await pay(headers)).status).toBe(200)
  })

  it('retrievePrivate - a settle timeout or 5xx is a 503 without a link; the nonce stays burned', async () => {
    for (const behaviour of ['settle-hangs', 'settle-500'] as const) {
      facilitator.set(behaviour)
      const headers = await header()
      const res = await pay(headers)
      expect(res.status, behaviour).toBe(503)
      expect(((await res.json()) as { url?: string }).url).toBeUndefined()
      facilitator.release()
      facilitator.set('ok')
      const replay = await pay(headers)
      expect(replay.status, behaviour).toBe(402)
    }
  })
})
