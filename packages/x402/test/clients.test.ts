import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { isPinfoldError, type PaymentPayload, type PaymentVerification } from '@pinfold/interface'
import { registerExactEvmScheme } from '@x402/evm/exact/client'
import { decodePaymentResponseHeader, wrapFetchWithPayment as wrapFetchV2, x402Client } from '@x402/fetch'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { decodeXPaymentResponse, wrapFetchWithPayment as wrapFetchV1 } from 'x402-fetch'
import {
  createOfflineVerifier,
  createPaymentRequiredResponse,
  encodePaymentResponseHeader,
  readPaymentFromHeaders,
} from '../src/index.js'
import { baseSepoliaRequirement, randomAccount } from './helpers.js'

interface SeenPayment {
  payment: PaymentPayload
  verification: PaymentVerification
}

/**
 * The smallest server a Pinfold route could be: only this package's functions, the real clock, and the
 * offline verifier. It answers one 402 for both client generations and serves `{url}` once paid.
 */
function createPaidRouteServer(seen: SeenPayment[]): Server {
  const verifier = createOfflineVerifier()

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const { port } = req.socket.address() as AddressInfo
    const requirement = baseSepoliaRequirement(`http://127.0.0.1:${port}${req.url}`)
    const send402 = (error?: string) => {
      const { status, headers, body } = createPaymentRequiredResponse(requirement, error)
      res.writeHead(status, headers).end(JSON.stringify(body))
    }
    let payment: PaymentPayload | undefined
    try {
      payment = readPaymentFromHeaders({ get: (name) => req.headers[name.toLowerCase()] as string }, requirement)
    } catch (err) {
      if (isPinfoldError(err) && err.code === 'PAYMENT_REQUIRED') return send402(String(err.details?.reason))
      res.writeHead(400).end(JSON.stringify({ error: 'invalid_payload' }))
      return
    }
    if (!payment) return send402()
    const verification = await verifier.verify(payment, requirement)
    seen.push({ payment, verification })
    if (!verification.valid) return send402(verification.reason)
    const settlement = await verifier.settle(payment, requirement)
    const { name, value } = encodePaymentResponseHeader(settlement, payment.x402Version)
    res.writeHead(200, { 'Content-Type': 'application/json', [name]: value })
    res.end(JSON.stringify({ url: 'https://gateway.example/ipfs/bafyTestCid?token=demo' }))
  }

  return createServer((req, res) => {
    handle(req, res).catch((err) => res.writeHead(500).end(String(err)))
  })
}

describe('real x402 clients', () => {
  const seen: SeenPayment[] = []
  const server = createPaidRouteServer(seen)
  let url: string

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/retrieve/private/bafyTestCid`
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it('x402-fetch v1 - pays the 402 with X-PAYMENT and the offline verifier accepts it', async () => {
    seen.length = 0
    const account = randomAccount()
    const paidFetch = wrapFetchV1(fetch, account, 1000n)
    const response = await paidFetch(url, { method: 'GET' })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ url: 'https://gateway.example/ipfs/bafyTestCid?token=demo' })
    expect(decodeXPaymentResponse(response.headers.get('x-payment-response')!)).toEqual({
      success: true,
      transaction: '',
      network: 'base-sepolia',
      payer: account.address,
    })
    expect(seen).toHaveLength(1)
    expect(seen[0]?.payment).toMatchObject({ x402Version: 1, network: 'base-sepolia' })
    expect(seen[0]?.verification).toMatchObject({ valid: true, payer: account.address })
  })

  it('@x402/fetch v2 - pays the 402 with PAYMENT-SIGNATURE and the offline verifier accepts it', async () => {
    seen.length = 0
    const account = randomAccount()
    const client = new x402Client()
    registerExactEvmScheme(client, { signer: account })
    const response = await wrapFetchV2(fetch, client)(url)
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ url: 'https://gateway.example/ipfs/bafyTestCid?token=demo' })
    expect(decodePaymentResponseHeader(response.headers.get('payment-response')!)).toMatchObject({
      success: true,
      transaction: '',
      network: 'eip155:84532',
      payer: account.address,
    })
    expect(seen).toHaveLength(1)
    expect(seen[0]?.payment).toMatchObject({ x402Version: 2, network: 'eip155:84532' })
    expect(seen[0]?.payment.authorization.validAfter).toBe('0')
    expect(seen[0]?.verification).toMatchObject({ valid: true, payer: account.address })
  })
})
