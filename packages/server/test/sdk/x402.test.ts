import { OTHER_ADDRESS, PAY_TO, USDC_BASE, USDC_BASE_SEPOLIA } from '@pinfold/testing/payments'
import type { PinataSDK } from 'pinata'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pinataFor } from '../support/sdk.js'
import { startTestServer, type TestServer } from '../support/server.js'

describe('official SDK - x402 payment instructions', () => {
  let server: TestServer
  let pinata: PinataSDK
  beforeAll(async () => {
    server = await startTestServer({ PINFOLD_X402_PAY_TO: PAY_TO })
    pinata = pinataFor(server.url, await server.token())
  })
  afterAll(() => server.close())

  const requirement = {
    asset: USDC_BASE_SEPOLIA,
    pay_to: PAY_TO,
    network: 'base-sepolia' as const,
    amount: '10000',
    description: 'one download',
  }

  it('x402 - a token holding only the scopes the spec names (org:write among them) manages instructions', async () => {
    const scopes = ['org:files:write', 'org:files:read', 'org:groups:write', 'org:groups:read', 'org:gateways:read']
    const specToken = pinataFor(server.url, await server.token({ scopes: [...scopes, 'org:write'] }))
    const created = await specToken.x402.createPaymentInstruction({ name: 'spec', payment_requirements: [requirement] })
    expect((await specToken.x402.getPaymentInstruction(created.data.id)).data.name).toBe('spec')
    await specToken.x402.deletePaymentInstruction(created.data.id)
  })

  it('x402 - create, get, update, list (filters, pages), delete', async () => {
    const created = await pinata.x402.createPaymentInstruction({
      name: 'premium',
      description: 'paid content',
      payment_requirements: [requirement],
    })
    expect(created.data).toMatchObject({
      id: expect.any(String),
      version: expect.any(Number),
      name: 'premium',
      description: 'paid content',
      payment_requirements: [requirement],
      created_at: expect.any(String),
    })
    const { id } = created.data
    expect((await pinata.x402.getPaymentInstruction(id)).data).toEqual(created.data)

    const updated = await pinata.x402.updatePaymentInstruction(id, {
      name: 'premium-plus',
      payment_requirements: [{ asset: USDC_BASE, pay_to: OTHER_ADDRESS, network: 'base', amount: '20000' }],
    })
    expect(updated.data).toMatchObject({
      id,
      name: 'premium-plus',
      payment_requirements: [{ asset: USDC_BASE, pay_to: OTHER_ADDRESS, network: 'base', amount: '20000' }],
    })
    expect((await pinata.x402.getPaymentInstruction(id)).data).toMatchObject({ name: 'premium-plus' })

    const second = await pinata.x402.createPaymentInstruction({ name: 'basic', payment_requirements: [requirement] })
    const third = await pinata.x402.createPaymentInstruction({ name: 'basic-2', payment_requirements: [requirement] })
    const byName = await pinata.x402.listPaymentInstructions({ name: 'basic' })
    expect(byName.data.payment_instructions.map((p) => p.id).sort()).toEqual([second.data.id, third.data.id].sort())
    const byId = await pinata.x402.listPaymentInstructions({ id })
    expect(byId.data.payment_instructions.map((p) => p.id)).toEqual([id])

    const page1 = await pinata.x402.listPaymentInstructions({ limit: 2 })
    expect(page1.data.payment_instructions).toHaveLength(2)
    expect(page1.data.next_page_token).toBeTruthy()
    const page2 = await pinata.x402.listPaymentInstructions({ limit: 2, pageToken: page1.data.next_page_token })
    expect(page2.data.payment_instructions).toHaveLength(1)
    expect(page2.data.next_page_token).toBeUndefined()
    const seen = [...page1.data.payment_instructions, ...page2.data.payment_instructions].map((p) => p.id)
    expect(seen.sort()).toEqual([id, second.data.id, third.data.id].sort())

    expect(await pinata.x402.deletePaymentInstruction(third.data.id)).toEqual({ data: null })
    await expect(pinata.x402.getPaymentInstruction(third.data.id)).rejects.toMatchObject({ statusCode: 404 })
  })

  it('x402 - addCid, listCids (with cid filter on instructions), removeCid; an attached CID asks for payment', async () => {
    const instruction = (
      await pinata.x402.createPaymentInstruction({ name: 'per-file', payment_requirements: [requirement] })
    ).data
    const a = await pinata.upload.private.file(new File(['paid a'], 'a.txt', { type: 'text/plain' }))
    const b = await pinata.upload.private.file(new File(['paid b'], 'b.txt', { type: 'text/plain' }))

    const attached = await pinata.x402.addCid(instruction.id, a.cid)
    expect(attached.data).toEqual({
      payment_instruction_id: instruction.id,
      cid: a.cid,
      created_at: expect.any(String),
    })
    await pinata.x402.addCid(instruction.id, b.cid)

    const cids = await pinata.x402.listCids(instruction.id)
    expect(cids.data.cids.sort()).toEqual([a.cid, b.cid].sort())
    const firstPage = await pinata.x402.listCids(instruction.id, { limit: 1 })
    expect(firstPage.data.cids).toHaveLength(1)
    const secondPage = await pinata.x402.listCids(instruction.id, {
      limit: 1,
      pageToken: firstPage.data.next_page_token,
    })
    expect([...firstPage.data.cids, ...secondPage.data.cids].sort()).toEqual([a.cid, b.cid].sort())
    const withCid = await pinata.x402.listPaymentInstructions({ cid: a.cid })
    expect(withCid.data.payment_instructions.map((p) => p.id)).toEqual([instruction.id])

    const unpaid = await fetch(`${server.url}/v1/retrieve/private/${a.cid}`)
    expect(unpaid.status).toBe(402)

    expect(await pinata.x402.removeCid(instruction.id, a.cid)).toEqual({ data: {} })
    expect((await pinata.x402.listCids(instruction.id)).data.cids).toEqual([b.cid])
    expect((await fetch(`${server.url}/v1/retrieve/private/${a.cid}`)).status).toBe(404)
  })
})
