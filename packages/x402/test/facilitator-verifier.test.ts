import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { PaymentPayload } from '@pinfold/interface'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createFacilitatorVerifier, toV1Requirements, toV2Requirements, toV2Resource } from '../src/index.js'
import { baseSepoliaRequirement, randomAccount, signPayment } from './helpers.js'

interface Received {
  path: string
  headers: IncomingHttpHeaders
  body: unknown
}

/** A stand-in facilitator: records each request and answers with whatever the test set, or never. */
function createFakeFacilitator() {
  const received: Received[] = []
  let reply: { status: number; body: unknown } | 'never' = { status: 200, body: { isValid: true } }
  const server: Server = createServer(async (req, res) => {
    let text = ''
    for await (const chunk of req) text += chunk
    received.push({ path: req.url ?? '', headers: req.headers, body: JSON.parse(text) })
    if (reply === 'never') return
    res.writeHead(reply.status, { 'Content-Type': 'application/json' }).end(JSON.stringify(reply.body))
  })
  return {
    server,
    received,
    answer(status: number, body: unknown) {
      reply = { status, body }
    },
    neverAnswer() {
      reply = 'never'
    },
  }
}

const requirement = baseSepoliaRequirement()
const unavailable = expect.objectContaining({ code: 'UNAVAILABLE' })

describe('createFacilitatorVerifier', () => {
  const facilitator = createFakeFacilitator()
  let url: string
  let v1: PaymentPayload
  let v2: PaymentPayload

  beforeAll(async () => {
    await new Promise<void>((resolve) => facilitator.server.listen(0, '127.0.0.1', resolve))
    url = `http://127.0.0.1:${(facilitator.server.address() as AddressInfo).port}/facilitator/`
    const account = randomAccount()
    v1 = await signPayment({ account, requirement, now: Math.floor(Date.now() / 1000) })
    v2 = await signPayment({ account, requirement, x402Version: 2, now: Math.floor(Date.now() / 1000) })
  })
  afterEach(() => {
    facilitator.received.length = 0
  })
  afterAll(() => {
    // Requests left hanging by the "never answers" tests would keep the server open.
    facilitator.server.closeAllConnections()
    return new Promise<void>((resolve) => facilitator.server.close(() => resolve()))
  })

  it('verify - posts the v1 facilitator body and maps isValid:true to a valid payment', async () => {
    facilitator.answer(200, { isValid: true, payer: v1.authorization.from })
    const verifier = createFacilitatorVerifier({ url, headers: { Authorization: 'Bearer test' } })
    await expect(verifier.verify(v1, requirement)).resolves.toEqual({
      valid: true,
      payer: v1.authorization.from,
      nonce: v1.authorization.nonce,
    })
    expect(facilitator.received).toHaveLength(1)
    const [request] = facilitator.received
    expect(request?.path).toBe('/facilitator/verify')
    expect(request?.headers.authorization).toBe('Bearer test')
    expect(request?.headers['content-type']).toBe('application/json')
    expect(request?.body).toEqual({
      x402Version: 1,
      paymentPayload: {
        x402Version: 1,
        scheme: 'exact',
        network: 'base-sepolia',
        payload: { signature: v1.signature, authorization: v1.authorization },
      },
      paymentRequirements: toV1Requirements(requirement),
    })
  })

  it('verify - posts the v2 body with accepted and resource rebuilt from the requirement', async () => {
    facilitator.answer(200, { isValid: true })
    const headers = () => ({ Authorization: 'Bearer fresh' })
    await createFacilitatorVerifier({ url, headers }).verify(v2, requirement)
    expect(facilitator.received[0]?.headers.authorization).toBe('Bearer fresh')
    expect(facilitator.received[0]?.body).toEqual({
      x402Version: 2,
      paymentPayload: {
        x402Version: 2,
        resource: toV2Resource(requirement),
        accepted: toV2Requirements(requirement),
        payload: { signature: v2.signature, authorization: v2.authorization },
      },
      paymentRequirements: toV2Requirements(requirement),
    })
  })

  it('verify - maps isValid:false to a refusal carrying the facilitator reason', async () => {
    facilitator.answer(200, { isValid: false, invalidReason: 'insufficient_funds', payer: v1.authorization.from })
    await expect(createFacilitatorVerifier({ url }).verify(v1, requirement)).resolves.toEqual({
      valid: false,
      reason: 'insufficient_funds',
    })
  })

  it('verify - maps a 400 carrying isValid:false to a refusal, not an outage', async () => {
    facilitator.answer(400, { isValid: false, invalidReason: 'invalid_exact_evm_payload_signature' })
    await expect(createFacilitatorVerifier({ url }).verify(v1, requirement)).resolves.toEqual({
      valid: false,
      reason: 'invalid_exact_evm_payload_signature',
    })
  })

  it('settle - maps success to a settlement with the transaction hash, marked settled on chain', async () => {
    const transaction = `0x${'ab'.repeat(32)}`
    facilitator.answer(200, { success: true, transaction, network: 'eip155:84532', payer: v2.authorization.from })
    await expect(createFacilitatorVerifier({ url }).settle(v2, requirement)).resolves.toEqual({
      success: true,
      transaction,
      network: 'eip155:84532',
      payer: v2.authorization.from,
      settledOnChain: true,
    })
    expect(facilitator.received[0]?.path).toBe('/facilitator/settle')
  })

  it('settle - maps success:false with errorReason to a failed settlement', async () => {
    facilitator.answer(200, {
      success: false,
      errorReason: 'insufficient_funds',
      transaction: '',
      network: 'base-sepolia',
    })
    await expect(createFacilitatorVerifier({ url }).settle(v1, requirement)).resolves.toEqual({
      success: false,
      errorReason: 'insufficient_funds',
      transaction: '',
      network: 'base-sepolia',
      payer: v1.authorization.from,
      settledOnChain: false,
    })
  })

  it('verify - rejects with UNAVAILABLE on HTTP 500', async () => {
    facilitator.answer(500, { error: 'boom' })
    await expect(createFacilitatorVerifier({ url }).verify(v1, requirement)).rejects.toThrow(unavailable)
  })

  it('settle - rejects with UNAVAILABLE on HTTP 502', async () => {
    facilitator.answer(502, 'bad gateway')
    await expect(createFacilitatorVerifier({ url }).settle(v1, requirement)).rejects.toThrow(unavailable)
  })

  it('verify - rejects with UNAVAILABLE on a 401 or an unexpected body', async () => {
    facilitator.answer(401, { error: 'unauthorized' })
    await expect(createFacilitatorVerifier({ url }).verify(v1, requirement)).rejects.toThrow(unavailable)
    facilitator.answer(200, { ok: true })
    await expect(createFacilitatorVerifier({ url }).verify(v1, requirement)).rejects.toThrow(unavailable)
  })

  it('verify - rejects with UNAVAILABLE, keeping the cause, when the facilitator cannot be reached', async () => {
    const refused = async () => {
      throw new TypeError('fetch failed')
    }
    const error = await createFacilitatorVerifier({ url, fetch: refused })
      .verify(v1, requirement)
      .catch((err: unknown) => err)
    expect(error).toMatchObject({ code: 'UNAVAILABLE', cause: expect.any(TypeError) })
  })

  it('settle - rejects with UNAVAILABLE when the facilitator never answers within timeoutMs', async () => {
    facilitator.neverAnswer()
    const error = await createFacilitatorVerifier({ url, timeoutMs: 50 })
      .settle(v1, requirement)
      .catch((err: unknown) => err)
    expect(error).toMatchObject({ code: 'UNAVAILABLE', message: expect.stringMatching(/timed out/) })
  })

  it('verify - rejects with ABORTED when the caller aborts', async () => {
    facilitator.neverAnswer()
    const controller = new AbortController()
    const pending = createFacilitatorVerifier({ url }).verify(v1, requirement, { signal: controller.signal })
    controller.abort()
    await expect(pending).rejects.toThrow(expect.objectContaining({ code: 'ABORTED' }))
  })
})
