import { describe, expect, it } from 'vitest'
import {
  ACCEPTED_MISMATCH_REASON,
  createPaymentRequiredBody,
  createPaymentRequiredResponse,
  decodePaymentHeader,
  encodePaymentRequiredHeader,
  encodePaymentResponseHeader,
  MAX_PAYMENT_HEADER_LENGTH,
  readPaymentFromHeaders,
  toV2Requirements,
} from '../src/index.js'
import {
  baseSepoliaRequirement,
  OTHER_ADDRESS,
  PAY_TO,
  randomAccount,
  signPayment,
  v1Header,
  v2Header,
} from './helpers.js'

const requirement = baseSepoliaRequirement()
const b64 = (text: string) => Buffer.from(text).toString('base64')
const invalidInput = expect.objectContaining({ code: 'INVALID_INPUT' })

describe('wire', () => {
  it('createPaymentRequiredBody - builds the v1 body the x402-fetch schema accepts', () => {
    const body = createPaymentRequiredBody(requirement, 'X-PAYMENT header is required')
    expect(body).toEqual({
      x402Version: 1,
      error: 'X-PAYMENT header is required',
      accepts: [
        {
          scheme: 'exact',
          network: 'base-sepolia',
          maxAmountRequired: '100',
          resource: 'https://files.example.com/v1/retrieve/private/bafyTest',
          description: 'Private retrieval',
          mimeType: 'application/json',
          payTo: PAY_TO,
          maxTimeoutSeconds: 60,
          asset: '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
          extra: { name: 'USDC', version: '2' },
        },
      ],
    })
    expect(body.accepts[0]).not.toHaveProperty('outputSchema')
  })

  it('encodePaymentRequiredHeader - encodes the v2 requirements as base64 JSON with a CAIP-2 network', () => {
    const decoded = JSON.parse(Buffer.from(encodePaymentRequiredHeader(requirement, 'pay'), 'base64').toString())
    expect(decoded).toEqual({
      x402Version: 2,
      error: 'pay',
      resource: {
        url: 'https://files.example.com/v1/retrieve/private/bafyTest',
        description: 'Private retrieval',
        mimeType: 'application/json',
      },
      accepts: [
        {
          scheme: 'exact',
          network: 'eip155:84532',
          amount: '100',
          asset: '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
          payTo: PAY_TO,
          maxTimeoutSeconds: 60,
          extra: { name: 'USDC', version: '2' },
        },
      ],
    })
  })

  it('createPaymentRequiredResponse - carries the v1 body, the v2 header and the CORS exposure together', () => {
    const response = createPaymentRequiredResponse(requirement, 'invalid_exact_evm_payload_signature')
    expect(response.status).toBe(402)
    expect(response.body.error).toBe('invalid_exact_evm_payload_signature')
    expect(response.headers['Content-Type']).toBe('application/json')
    expect(response.headers['PAYMENT-REQUIRED']).toBe(
      encodePaymentRequiredHeader(requirement, 'invalid_exact_evm_payload_signature'),
    )
    expect(response.headers['Access-Control-Expose-Headers']).toContain('PAYMENT-REQUIRED')
  })

  it('createPaymentRequiredResponse - refuses a relative resource with INVALID_INPUT', () => {
    expect(() => createPaymentRequiredResponse({ ...requirement, resource: '/v1/retrieve/private/x' })).toThrow(
      invalidInput,
    )
  })

  it('decodePaymentHeader - decodes a v1 X-PAYMENT into the normalised payment', async () => {
    const payment = await signPayment({ account: randomAccount(), requirement })
    expect(decodePaymentHeader(v1Header(payment), requirement)).toEqual(payment)
  })

  it('decodePaymentHeader - decodes a v2 PAYMENT-SIGNATURE with validAfter "0" and a CAIP-2 network', async () => {
    const payment = await signPayment({ account: randomAccount(), requirement, x402Version: 2 })
    const decoded = decodePaymentHeader(v2Header(payment, requirement), requirement)
    expect(decoded).toEqual(payment)
    expect(decoded).toMatchObject({ x402Version: 2, network: 'eip155:84532' })
    expect(decoded.authorization.validAfter).toBe('0')
  })

  it('decodePaymentHeader - accepts a v2 accepted whose extra adds fields, like the reference server', async () => {
    const payment = await signPayment({ account: randomAccount(), requirement, x402Version: 2 })
    const offered = toV2Requirements(requirement)
    const header = v2Header(payment, requirement, { ...offered, extra: { ...offered.extra, feePayer: 'x' } })
    expect(decodePaymentHeader(header, requirement).x402Version).toBe(2)
  })

  it('decodePaymentHeader - refuses a v2 payment whose accepted differs from the offer with PAYMENT_REQUIRED', async () => {
    const payment = await signPayment({ account: randomAccount(), requirement, x402Version: 2 })
    const offered = toV2Requirements(requirement)
    const doctored = [
      { ...offered, amount: '1' },
      { ...offered, payTo: OTHER_ADDRESS },
      { ...offered, network: 'eip155:8453' },
      { ...offered, asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' },
      { ...offered, maxTimeoutSeconds: 3600 },
      { ...offered, extra: { name: 'USD Coin', version: '2' } },
      { ...offered, extra: undefined },
      { ...offered, surprise: true },
    ]
    for (const accepted of doctored) {
      expect(() => decodePaymentHeader(v2Header(payment, requirement, accepted), requirement)).toThrow(
        expect.objectContaining({ code: 'PAYMENT_REQUIRED', details: { reason: ACCEPTED_MISMATCH_REASON } }),
      )
    }
  })

  it('decodePaymentHeader - refuses malformed base64, JSON and shapes with INVALID_INPUT', async () => {
    const payment = await signPayment({ account: randomAccount(), requirement })
    const wire = { x402Version: 1, scheme: 'exact', network: 'base-sepolia', payload: { ...payment } }
    const withAuthorization = (patch: Record<string, unknown>) =>
      b64(
        JSON.stringify({
          ...wire,
          payload: { ...wire.payload, authorization: { ...payment.authorization, ...patch } },
        }),
      )
    const malformed = [
      '',
      'not base64!',
      b64('{"x402Version":1,'),
      b64('[1,2]'),
      b64('null'),
      b64(JSON.stringify({ ...wire, x402Version: 3 })),
      b64(JSON.stringify({ ...wire, payload: undefined })),
      b64(JSON.stringify({ ...wire, network: 84532 })),
      b64(JSON.stringify({ ...wire, payload: { ...wire.payload, signature: 'abc' } })),
      b64(JSON.stringify({ x402Version: 2, payload: wire.payload })),
      withAuthorization({ nonce: '0x1234' }),
      withAuthorization({ from: '0xnot-an-address' }),
      withAuthorization({ value: '-100' }),
      withAuthorization({ value: 100 }),
      withAuthorization({ validBefore: '1e10' }),
      withAuthorization({ validAfter: (2n ** 256n).toString() }),
    ]
    for (const header of malformed) {
      expect(() => decodePaymentHeader(header, requirement), header).toThrow(invalidInput)
    }
  })

  it('decodePaymentHeader - refuses a header over the size cap before decoding it', () => {
    const oversized = 'A'.repeat(MAX_PAYMENT_HEADER_LENGTH + 1)
    expect(() => decodePaymentHeader(oversized, requirement)).toThrow(invalidInput)
    expect(() => decodePaymentHeader(oversized, requirement)).toThrow(/longer than/)
  })

  it('readPaymentFromHeaders - prefers PAYMENT-SIGNATURE, falls back to X-PAYMENT, and is undefined without either', async () => {
    const account = randomAccount()
    const v1 = await signPayment({ account, requirement })
    const v2 = await signPayment({ account, requirement, x402Version: 2 })
    const both = new Headers({ 'x-payment': v1Header(v1), 'payment-signature': v2Header(v2, requirement) })
    expect(readPaymentFromHeaders(both, requirement)?.x402Version).toBe(2)
    expect(readPaymentFromHeaders(new Headers({ 'X-PAYMENT': v1Header(v1) }), requirement)).toEqual(v1)
    expect(readPaymentFromHeaders(new Headers(), requirement)).toBeUndefined()
  })

  it('encodePaymentResponseHeader - names the header after the version and sends only wire fields', () => {
    const settlement = { success: true, transaction: '', network: 'base-sepolia', payer: PAY_TO, settledOnChain: false }
    const v1 = encodePaymentResponseHeader(settlement, 1)
    expect(v1.name).toBe('X-PAYMENT-RESPONSE')
    expect(JSON.parse(Buffer.from(v1.value, 'base64').toString())).toEqual({
      success: true,
      transaction: '',
      network: 'base-sepolia',
      payer: PAY_TO,
    })
    const failed = { success: false, transaction: '', network: 'eip155:84532', payer: PAY_TO, errorReason: 'x' }
    const v2 = encodePaymentResponseHeader(failed, 2)
    expect(v2.name).toBe('PAYMENT-RESPONSE')
    expect(JSON.parse(Buffer.from(v2.value, 'base64').toString())).toEqual(failed)
  })
})
