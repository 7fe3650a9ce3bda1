import {
  decodeHeader,
  OTHER_ADDRESS,
  PAY_TO,
  priceCid,
  randomAccount,
  signedHeader,
  startPaidApi,
  USDC_BASE_SEPOLIA,
  uploadPrivate,
} from '@pinfold/testing/payments'
import type { TestApi } from '@pinfold/testing/test-api'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const SECRET_TEXT = 'the private bytes only payers may read'

describe('GET /v1/retrieve/private/{cid}', () => {
  let server: TestApi
  let cid: string
  let resource: string

  beforeAll(async () => {
    server = await startPaidApi()
    cid = await uploadPrivate(server, SECRET_TEXT)
    await priceCid(server, cid)
    resource = `${server.url}/v1/retrieve/private/${cid}`
  })
  afterAll(() => server.close())

  const retrieve = (headers?: Record<string, string>, path = `/v1/retrieve/private/${cid}`) =>
    server.fetch(`${server.url}${path}`, { headers })

  async function expectRefused(headers: Record<string, string>, reason: string | RegExp) {
    const res = await retrieve(headers)
    const body = (await res.json()) as { error: string; url?: string }
    expect(res.status).toBe(402)
    expect(body.url).toBeUndefined()
    expect(body.error).toMatch(reason)
    expect(decodeHeader(res.headers.get('payment-required')).error).toMatch(reason)
  }

  it('retrievePrivate - without a payment answers 402 with the v1 body and the v2 PAYMENT-REQUIRED header', async () => {
    const res = await retrieve()
    expect(res.status).toBe(402)
    const body = (await res.json()) as Record<string, unknown>
    expect(body).toEqual({
      x402Version: 1,
      error: 'X-PAYMENT or PAYMENT-SIGNATURE header is required',
      accepts: [
        {
          scheme: 'exact',
          network: 'base-sepolia',
          maxAmountRequired: '100',
          resource,
          description: `Private retrieval of ${cid}`,
          mimeType: 'application/json',
          payTo: PAY_TO,
          maxTimeoutSeconds: 60,
          asset: USDC_BASE_SEPOLIA,
          extra: { name: 'USDC', version: '2' },
        },
      ],
    })
    expect(decodeHeader(res.headers.get('payment-required'))).toEqual({
      x402Version: 2,
      error: 'X-PAYMENT or PAYMENT-SIGNATURE header is required',
      resource: { url: resource, description: `Private retrieval of ${cid}`, mimeType: 'application/json' },
      accepts: [
        {
          scheme: 'exact',
          network: 'eip155:84532',
          amount: '100',
          asset: USDC_BASE_SEPOLIA,
          payTo: PAY_TO,
          maxTimeoutSeconds: 60,
          extra: { name: 'USDC', version: '2' },
        },
      ],
    })
  })

  it('retrievePrivate - a tampered link is refused by the download route', async () => {
    const { name, value } = await signedHeader({ account: randomAccount(), resource })
    const res = await retrieve({ [name]: value })
    const { url } = (await res.json()) as { url: string }
    const tampered = new URL(url)
    tampered.searchParams.set('X-Expires', '999999')
    expect((await server.fetch(tampered)).status).toBe(403)
  })

  it('retrievePrivate - a replayed payment is refused (v1 and v2)', async () => {
    for (const x402Version of [1, 2] as const) {
      const { name, value } = await signedHeader({ account: randomAccount(), resource, x402Version })
      expect((await retrieve({ [name]: value })).status).toBe(200)
      await expectRefused({ [name]: value }, 'invalid_exact_evm_nonce_already_used')
    }
  })

  it('retrievePrivate - 20 concurrent replays of one payment yield exactly one 200', async () => {
    const { name, value } = await signedHeader({ account: randomAccount(), resource })
    const responses = await Promise.all(Array.from({ length: 20 }, () => retrieve({ [name]: value })))
    const statuses = responses.map((r) => r.status)
    expect(statuses.filter((s) => s === 200)).toHaveLength(1)
    expect(statuses.filter((s) => s === 402)).toHaveLength(19)
  })

  it('retrievePrivate - tampered, underpaid, expired, wrong-network and wrong-recipient payments get 402 with the reason', async () => {
    const account = randomAccount()
    const now = Math.floor(Date.now() / 1000)
    // a valid signature, then the value changed after signing
    const good = await signedHeader({ account, resource })
    const decoded = decodeHeader(good.value) as { payload: { authorization: { value: string } } }
    decoded.payload.authorization.value = '1000'
    const tampered = Buffer.from(JSON.stringify(decoded)).toString('base64')
    await expectRefused({ 'X-PAYMENT': tampered }, 'invalid_exact_evm_payload_signature')

    const underpaid = await signedHeader({ account, resource, authorization: { value: '99' } })
    await expectRefused({ [underpaid.name]: underpaid.value }, 'invalid_exact_evm_payload_authorization_value')
    const underpaidV2 = await signedHeader({ account, resource, x402Version: 2, authorization: { value: '99' } })
    await expectRefused({ [underpaidV2.name]: underpaidV2.value }, 'invalid_exact_evm_payload_authorization_value')

    const expired = await signedHeader({ account, resource, authorization: { validBefore: String(now - 1) } })
    await expectRefused({ [expired.name]: expired.value }, 'invalid_exact_evm_payload_authorization_valid_before')

    const mainnet = await signedHeader({ account, resource, network: 'base' })
    await expectRefused({ [mainnet.name]: mainnet.value }, 'invalid_network')
    // v2 names the requirement it accepts: one we did not offer is refused before any signature check
    const mainnetV2 = await signedHeader({ account, resource, network: 'base', x402Version: 2 })
    await expectRefused({ [mainnetV2.name]: mainnetV2.value }, 'invalid_payment_requirements')

    const elsewhere = await signedHeader({ account, resource, authorization: { to: OTHER_ADDRESS } })
    await expectRefused({ [elsewhere.name]: elsewhere.value }, 'invalid_exact_evm_payload_recipient_mismatch')
  })

  it('retrievePrivate - a refused payment burns nothing: the same authorization still pays once it is valid', async () => {
    // a payment refused for a reason that does not depend on the signature leaves the nonce unclaimed
    const account = randomAccount()
    const nonce = `0x${'7'.repeat(64)}`
    const wrongTo = await signedHeader({ account, resource, authorization: { nonce, to: OTHER_ADDRESS } })
    await expectRefused({ [wrongTo.name]: wrongTo.value }, 'recipient_mismatch')
    const right = await signedHeader({ account, resource, authorization: { nonce } })
    expect((await retrieve({ [right.name]: right.value })).status).toBe(200)
  })

  it('retrievePrivate - a malformed payment header is a 400', async () => {
    for (const value of ['not base64!', Buffer.from('{"x402Version":1').toString('base64'), 'e30=']) {
      const res = await retrieve({ 'X-PAYMENT': value })
      expect(res.status).toBe(400)
      expect(((await res.json()) as { error: string }).error).toMatch(/x402 payment/)
    }
    const res = await retrieve({ 'PAYMENT-SIGNATURE': Buffer.from('{"x402Version":2}').toString('base64') })
    expect(res.status).toBe(400)
  })

  it('retrievePrivate - a CID attached to no instruction is a 404, with or without a payment', async () => {
    const unpriced = await uploadPrivate(server, 'not for sale')
    expect((await retrieve(undefined, `/v1/retrieve/private/${unpriced}`)).status).toBe(404)
    const { name, value } = await signedHeader({ account: randomAccount(), resource })
    expect((await retrieve({ [name]: value }, `/v1/retrieve/private/${unpriced}`)).status).toBe(404)
    expect((await retrieve(undefined, '/v1/retrieve/private/bafkreiunknown')).status).toBe(404)
  })

  it('retrievePrivate - a detached CID is no longer for sale', async () => {
    const other = await uploadPrivate(server, 'briefly for sale')
    const id = await priceCid(server, other)
    expect((await retrieve(undefined, `/v1/retrieve/private/${other}`)).status).toBe(402)
    expect((await server.api(`/v3/x402/payment_instructions/${id}/cids/${other}`, { method: 'DELETE' })).status).toBe(
      200,
    )
    expect((await retrieve(undefined, `/v1/retrieve/private/${other}`)).status).toBe(404)
  })

  it("retrievePrivate - the instruction's pay_to, network and amount win over the server defaults", async () => {
    const other = await uploadPrivate(server, 'priced on mainnet')
    await priceCid(server, other, {
      name: 'mainnet',
      payment_requirements: [{ network: 'base', pay_to: OTHER_ADDRESS, amount: '2500', description: 'Premium' }],
    })
    const res = await retrieve(undefined, `/v1/retrieve/private/${other}`)
    expect(res.status).toBe(402)
    const { accepts } = (await res.json()) as { accepts: Record<string, unknown>[] }
    expect(accepts).toEqual([
      expect.objectContaining({
        network: 'base',
        payTo: OTHER_ADDRESS,
        maxAmountRequired: '2500',
        description: 'Premium',
        asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
        extra: { name: 'USD Coin', version: '2' },
      }),
    ])
    // a payment signed for the default terms does not pay for these
    const { name, value } = await signedHeader({ account: randomAccount(), resource })
    const paid = await retrieve({ [name]: value }, `/v1/retrieve/private/${other}`)
    expect(paid.status).toBe(402)
  })

  it('retrievePrivate - needs no bearer token and ignores one', async () => {
    const res = await retrieve({ authorization: 'Bearer not-a-token' })
    expect(res.status).toBe(402)
  })
})
