import { createFacilitator, TX } from '@pinfold/testing/facilitator'
import { decodeHeader, PAY_TO, priceCid, randomAccount, uploadPrivate } from '@pinfold/testing/payments'
import { registerExactEvmScheme } from '@x402/evm/exact/client'
import { decodePaymentResponseHeader, wrapFetchWithPayment as wrapFetchV2, x402Client } from '@x402/fetch'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { decodeXPaymentResponse, wrapFetchWithPayment as wrapFetchV1 } from 'x402-fetch'
import { startTestServer, type TestServer } from './support/server.js'

/**
 * The x402 client libraries paying `pinfold serve` over the network, with the offline verifier and
 * through a facilitator (PINFOLD_X402_FACILITATOR_URL), on memory stores as before the move. Paid retrieval itself (402 bodies, replays,
 * refusals, facilitator failures) is tested in process in packages/http/test/payments-*.test.ts.
 */

const SECRET_TEXT = 'the private bytes only payers may read'

describe('GET /v1/retrieve/private/{cid} - x402 client libraries', () => {
  let server: TestServer
  let cid: string
  let resource: string

  beforeAll(async () => {
    server = await startTestServer({ PINFOLD_X402_PAY_TO: PAY_TO }, { storage: 'memory' })
    cid = await uploadPrivate(server, SECRET_TEXT)
    await priceCid(server, cid)
    resource = `${server.url}/v1/retrieve/private/${cid}`
  })
  afterAll(() => server.close())

  it('retrievePrivate - x402-fetch (v1) pays with X-PAYMENT and the returned link serves the bytes', async () => {
    const account = randomAccount()
    const res = await wrapFetchV1(fetch, account, 1000n)(resource, { method: 'GET' })
    expect(res.status).toBe(200)
    const body = (await res.json()) as { url: string }
    expect(Object.keys(body)).toEqual(['url'])
    expect(body.url.startsWith(`${server.url}/files/${cid}?`)).toBe(true)
    expect(decodeXPaymentResponse(res.headers.get('x-payment-response')!)).toEqual({
      success: true,
      transaction: '',
      network: 'base-sepolia',
      payer: account.address,
    })
    const file = await fetch(body.url)
    expect(file.status).toBe(200)
    expect(await file.text()).toBe(SECRET_TEXT)
  })

  it('retrievePrivate - @x402/fetch + @x402/evm (v2) pays with PAYMENT-SIGNATURE and the link serves the bytes', async () => {
    const account = randomAccount()
    const client = new x402Client()
    registerExactEvmScheme(client, { signer: account })
    const res = await wrapFetchV2(fetch, client)(resource)
    expect(res.status).toBe(200)
    const { url } = (await res.json()) as { url: string }
    expect(decodePaymentResponseHeader(res.headers.get('payment-response')!)).toEqual({
      success: true,
      transaction: '',
      network: 'eip155:84532',
      payer: account.address,
    })
    const file = await fetch(url)
    expect(file.status).toBe(200)
    expect(await file.text()).toBe(SECRET_TEXT)
  })
})

describe('paid retrieval through a facilitator (PINFOLD_X402_FACILITATOR_URL) - x402 client library', () => {
  const facilitator = createFacilitator()
  let server: TestServer
  let path: string

  beforeAll(async () => {
    server = await startTestServer(
      {
        PINFOLD_X402_PAY_TO: PAY_TO,
        PINFOLD_X402_FACILITATOR_URL: await facilitator.listen(),
        PINFOLD_X402_FACILITATOR_TIMEOUT_MS: '300',
      },
      { storage: 'memory' },
    )
    const cid = await uploadPrivate(server, 'settled bytes')
    await priceCid(server, cid)
    path = `/v1/retrieve/private/${cid}`
  })
  afterAll(async () => {
    await server?.close()
    await facilitator.close()
  })

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
})
