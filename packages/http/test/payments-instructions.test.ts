import {
  OTHER_ADDRESS,
  PAY_TO,
  startPaidApi,
  USDC_BASE,
  USDC_BASE_SEPOLIA,
  uploadPrivate,
} from '@pinfold/testing/payments'
import type { TestApi } from '@pinfold/testing/test-api'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const BASE = '/v3/x402/payment_instructions'

describe('/v3/x402/payment_instructions', () => {
  let server: TestApi

  beforeAll(async () => {
    server = await startPaidApi()
  })
  afterAll(() => server.close())

  const send = (method: string, path: string, body?: unknown, org?: string) =>
    server.api(path, { method, ...(body === undefined ? {} : { body: JSON.stringify(body) }), org })
  const create = async (body: unknown, org?: string) => {
    const res = await send('POST', BASE, body, org)
    return { status: res.status, body: (await res.json()) as { data: Record<string, unknown>; error?: string } }
  }

  it('create - fills the requirement from the server defaults and returns the record', async () => {
    const { status, body } = await create({ name: 'defaults' })
    expect(status).toBe(200)
    expect(body.data).toEqual({
      id: expect.any(String),
      version: 1,
      payment_requirements: [{ asset: USDC_BASE_SEPOLIA, pay_to: PAY_TO, network: 'base-sepolia', amount: '100' }],
      name: 'defaults',
      created_at: expect.stringMatching(/Z$/),
    })
  })

  it("create - keeps the client's requirements (network, pay_to, amount, description) and description", async () => {
    const { status, body } = await create({
      name: 'custom',
      description: 'for subscribers',
      payment_requirements: [
        {
          asset: USDC_BASE.toLowerCase(),
          pay_to: OTHER_ADDRESS,
          network: 'eip155:8453',
          amount: '10000',
          description: 'x',
        },
      ],
    })
    expect(status).toBe(200)
    expect(body.data).toMatchObject({
      description: 'for subscribers',
      payment_requirements: [
        { asset: USDC_BASE, pay_to: OTHER_ADDRESS, network: 'eip155:8453', amount: '10000', description: 'x' },
      ],
    })
  })

  it('create - refuses bad input with 400 and stores nothing', async () => {
    const bad = [
      {},
      { name: '' },
      { name: 'x', payment_requirements: [] },
      { name: 'x', payment_requirements: 'nope' },
      { name: 'x', payment_requirements: [{ network: 'ethereum' }] },
      { name: 'x', payment_requirements: [{ network: 'base', asset: USDC_BASE_SEPOLIA }] },
      { name: 'x', payment_requirements: [{ pay_to: '0x123' }] },
      { name: 'x', payment_requirements: [{ amount: '0' }] },
      { name: 'x', payment_requirements: [{ amount: '1.5' }] },
      { name: 'x', description: 42 },
    ]
    const before = ((await (await send('GET', `${BASE}?limit=1000`)).json()) as { data: { payment_instructions: [] } })
      .data.payment_instructions.length
    for (const body of bad) expect((await create(body)).status, JSON.stringify(body)).toBe(400)
    const after = ((await (await send('GET', `${BASE}?limit=1000`)).json()) as { data: { payment_instructions: [] } })
      .data.payment_instructions.length
    expect(after).toBe(before)
  })

  it('get, update, delete - round trip; PATCH bumps version; other tenants get 404', async () => {
    const { body } = await create({ name: 'lifecycle', description: 'v1' })
    const id = body.data.id as string
    expect((await send('GET', `${BASE}/${id}`)).status).toBe(200)
    expect((await send('GET', `${BASE}/${id}`, undefined, 'other-org')).status).toBe(404)
    const patched = await send('PATCH', `${BASE}/${id}`, { name: 'renamed', payment_requirements: [{ amount: '500' }] })
    expect(patched.status).toBe(200)
    expect(((await patched.json()) as { data: unknown }).data).toMatchObject({
      version: 2,
      name: 'renamed',
      description: 'v1',
      payment_requirements: [{ amount: '500', pay_to: PAY_TO }],
    })
    expect((await send('PATCH', `${BASE}/${id}`, {})).status).toBe(400)
    expect((await send('PATCH', `${BASE}/${id}`, { name: 'stolen' }, 'other-org')).status).toBe(404)
    expect((await send('DELETE', `${BASE}/${id}`, undefined, 'other-org')).status).toBe(404)
    const deleted = await send('DELETE', `${BASE}/${id}`)
    expect(deleted.status).toBe(200)
    expect((await send('GET', `${BASE}/${id}`)).status).toBe(404)
  })

  it('list - pages with pageToken/limit, omits next_page_token on the last page, filters by name, id and cid', async () => {
    const org = `list-${Date.now()}`
    const ids: string[] = []
    for (const name of ['alpha', 'alpine', 'beta']) ids.push((await create({ name }, org)).body.data.id as string)
    const walk: string[] = []
    let token = ''
    for (let i = 0; i < 5; i++) {
      const res = await send('GET', `${BASE}?limit=2${token ? `&pageToken=${token}` : ''}`, undefined, org)
      const { data } = (await res.json()) as {
        data: { payment_instructions: { id: string }[]; next_page_token?: string }
      }
      walk.push(...data.payment_instructions.map((i) => i.id))
      if (!data.next_page_token) break
      token = data.next_page_token
    }
    expect(walk.sort()).toEqual([...ids].sort())
    const names = async (query: string) =>
      (
        (await (await send('GET', `${BASE}?${query}`, undefined, org)).json()) as {
          data: { payment_instructions: { name: string }[] }
        }
      ).data.payment_instructions.map((i) => i.name)
    expect((await names('name=alp')).sort()).toEqual(['alpha', 'alpine'])
    expect(await names(`id=${ids[2]}`)).toEqual(['beta'])
    const cid = await uploadPrivate(server, 'listed', org)
    await send('PUT', `${BASE}/${ids[1]}/cids/${cid}`, undefined, org)
    expect(await names(`cid=${cid}`)).toEqual(['alpine'])
    expect(await names('cid=bafkreinothing')).toEqual([])
  })

  it('cids - attach (idempotent), list, remove → {data: {}}; delete is 409 while attached', async () => {
    const id = (await create({ name: 'with cids' })).body.data.id as string
    const cid = await uploadPrivate(server, 'attach me')
    const attached = await send('PUT', `${BASE}/${id}/cids/${cid}`)
    expect(attached.status).toBe(200)
    expect(((await attached.json()) as { data: unknown }).data).toEqual({
      payment_instruction_id: id,
      cid,
      created_at: expect.any(String),
    })
    expect((await send('PUT', `${BASE}/${id}/cids/${cid}`)).status).toBe(200)
    const listed = await send('GET', `${BASE}/${id}/cids`)
    expect(((await listed.json()) as { data: unknown }).data).toEqual({ cids: [cid] })
    const conflict = await send('DELETE', `${BASE}/${id}`)
    expect(conflict.status).toBe(409)
    expect(((await conflict.json()) as { error: string }).error).toMatch(/CIDs attached/)
    const removed = await send('DELETE', `${BASE}/${id}/cids/${cid}`)
    expect(removed.status).toBe(200)
    expect(await removed.json()).toEqual({ data: {} })
    expect((await send('DELETE', `${BASE}/${id}/cids/${cid}`)).status).toBe(404)
    expect((await send('DELETE', `${BASE}/${id}`)).status).toBe(200)
  })

  it("cids - only CIDs the tenant holds can be attached; another tenant's instruction is a 404", async () => {
    const id = (await create({ name: 'mine' })).body.data.id as string
    const theirs = await uploadPrivate(server, 'their file', 'other-org')
    expect((await send('PUT', `${BASE}/${id}/cids/${theirs}`)).status).toBe(404)
    expect((await send('PUT', `${BASE}/${id}/cids/bafkreinotheld`)).status).toBe(404)
    expect((await send('PUT', `${BASE}/${id}/cids/${theirs}`, undefined, 'other-org')).status).toBe(404)
    expect((await send('GET', `${BASE}/${id}/cids`, undefined, 'other-org')).status).toBe(404)
    expect((await send('PUT', `${BASE}/${id}/cids/not%20a%20cid`)).status).toBe(400)
  })

  it('cids - a CID prices one instruction per tenant: attaching it to a second one is a 409', async () => {
    const a = (await create({ name: 'a' })).body.data.id as string
    const b = (await create({ name: 'b' })).body.data.id as string
    const cid = await uploadPrivate(server, 'one price only')
    expect((await send('PUT', `${BASE}/${a}/cids/${cid}`)).status).toBe(200)
    expect((await send('PUT', `${BASE}/${b}/cids/${cid}`)).status).toBe(409)
  })

  it('auth - needs a bearer token with the x402 scopes', async () => {
    expect((await server.api(BASE, { auth: null })).status).toBe(401)
    const readOnly = await server.token({ scopes: ['org:x402:read'] })
    expect((await server.api(BASE, { auth: readOnly })).status).toBe(200)
    const res = await server.api(BASE, { method: 'POST', body: JSON.stringify({ name: 'x' }), auth: readOnly })
    expect(res.status).toBe(403)
  })
})
