import { createFacilitator } from '@pinfold/testing/facilitator'
import { priceCid, randomAccount, signedHeader, startPaidApi, uploadPrivate } from '@pinfold/testing/payments'
import type { TestApi } from '@pinfold/testing/test-api'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'

describe('paid retrieval through a facilitator (PINFOLD_X402_FACILITATOR_URL)', () => {
  const facilitator = createFacilitator()
  let server: TestApi
  let cid: string
  let path: string

  beforeAll(async () => {
    server = await startPaidApi({ facilitatorUrl: await facilitator.listen(), facilitatorTimeoutMs: 300 })
    cid = await uploadPrivate(server, 'settled bytes')
    await priceCid(server, cid)
    path = `/v1/retrieve/private/${cid}`
  })
  afterAll(async () => {
    await server.close()
    await facilitator.close()
  })
  beforeEach(() => facilitator.release())

  const pay = async (headers: Record<string, string>) => server.fetch(`${server.url}${path}`, { headers })
  const header = async () => {
    const { name, value } = await signedHeader({ account: randomAccount(), resource: `${server.url}${path}` })
    return { [name]: value }
  }

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
