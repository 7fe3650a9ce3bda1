import type { BlockFetcher } from '@pinfold/core'
import { mintOperatorToken, PinfoldError } from '@pinfold/core'
import { rawBlock } from '@pinfold/testing/dag-builders'
import { startTestApi, TEST_SECRET, type TestApi, upload } from '@pinfold/testing/test-api'
import { b64, createSdkStyle, patchAt } from '@pinfold/testing/tus'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

/**
 * What a suspended tenant still had running in the background: its pin-by-CID jobs (queued ones
 * wait, a running one goes back to the queue at its next lease renewal) and its open tus upload
 * sessions (PATCH and HEAD refused as its requests are). The suspension's effect on the tenant's
 * own requests is in `admin.test.ts`.
 */

const REFUSAL = 'tenant acme is suspended by the operator of this deployment: background check'

describe('a suspended tenant does nothing in the background', () => {
  let server: TestApi
  let operator: string
  /** Blocks the fetcher serves; a CID held back waits until released (or its job is stopped). */
  const blocks = new Map<string, Uint8Array>()
  const held = new Map<string, Promise<void>>()
  const fetched: string[] = []

  beforeAll(async () => {
    const fetcher: BlockFetcher = {
      name: 'test-blocks',
      async getBlock(cid, { signal }) {
        fetched.push(cid.toString())
        const gate = held.get(cid.toString())
        if (gate) {
          await new Promise<void>((resolve, reject) => {
            signal?.addEventListener('abort', () => reject(signal.reason), { once: true })
            gate.then(resolve)
          })
        }
        const bytes = blocks.get(cid.toString())
        if (!bytes) throw new PinfoldError('NOT_FOUND', `no block ${cid}`)
        return bytes
      },
    }
    // a lease of 300 ms is renewed (and the suspension looked at) every 100 ms
    server = await startTestApi({ embedder: null, blockFetchers: [fetcher], pinning: { leaseMs: 300 } })
    operator = await mintOperatorToken(TEST_SECRET, { sub: 'ops', expiresIn: '1h' })
  })
  afterAll(() => server?.close())

  const admin = (path: string, body?: unknown) =>
    server.api(`/admin/v1/tenants/acme/${path}`, {
      method: 'POST',
      body: body === undefined ? undefined : JSON.stringify(body),
      auth: operator,
    })
  const suspend = async () =>
    expect((await admin('suspend', { reason: 'background check', hide_content: false })).status).toBe(200)
  const resume = async () => expect((await admin('resume')).status).toBe(200)
  const pinRequest = (id: string) => server.stores.records.pinRequests.getPinRequest('acme', id)

  async function pinBlock(text: string): Promise<{ id: string; cid: string }> {
    const block = await rawBlock(new TextEncoder().encode(text))
    blocks.set(block.cid.toString(), block.bytes)
    const res = await server.api('/v3/files/public/pin_by_cid', {
      method: 'POST',
      body: JSON.stringify({ cid: block.cid.toString(), name: `${text}.txt` }),
    })
    expect(res.status).toBe(200)
    const { data } = (await res.json()) as { data: { id: string } }
    return { id: data.id, cid: block.cid.toString() }
  }

  it('pin jobs - a queued job is not started while its tenant is suspended, and runs once it is resumed', async () => {
    const queued = await pinBlock('queued while suspended')
    await suspend()
    // another tenant's job still runs; the suspended tenant's is passed over
    const other = await rawBlock(new TextEncoder().encode('globex pin'))
    blocks.set(other.cid.toString(), other.bytes)
    const res = await server.api('/v3/files/public/pin_by_cid', {
      method: 'POST',
      body: JSON.stringify({ cid: other.cid.toString() }),
      org: 'globex',
    })
    expect(res.status).toBe(200)
    expect(await server.service.pins.runNext()).toBe(true)
    expect(await server.service.pins.runNext()).toBe(false)
    expect(fetched).not.toContain(queued.cid)
    expect(await pinRequest(queued.id)).toMatchObject({ state: 'queued', attempts: 0 })

    await resume()
    expect(await server.service.pins.runNext()).toBe(true)
    expect(await pinRequest(queued.id)).toMatchObject({ state: 'pinned' })
  })

  it('pin jobs - a running job stops at its next lease renewal and waits in the queue; resumed, it is pinned', async () => {
    const job = await pinBlock('running when suspended')
    let release = () => {}
    held.set(
      job.cid,
      new Promise<void>((resolve) => {
        release = resolve
      }),
    )
    const running = server.service.pins.runNext()
    await expect.poll(() => fetched.includes(job.cid)).toBe(true)
    await suspend()
    // the job ends (it is not left holding a worker) and its request goes back, unfinished, the
    // attempt its claim counted given back (a stopped job did not fail)
    expect(await running).toBe(true)
    expect(await pinRequest(job.id)).toMatchObject({ state: 'queued', leaseOwner: null, failure: null, attempts: 0 })
    expect(await server.service.pins.runNext()).toBe(false)

    await resume()
    release()
    expect(await server.service.pins.runNext()).toBe(true)
    expect(await pinRequest(job.id)).toMatchObject({ state: 'pinned', attempts: 1 })
  })

  it('tus - an open session refuses PATCH and HEAD with the suspension while it lasts, and continues after', async () => {
    const bytes = new TextEncoder().encode('first half|second half')
    const created = await createSdkStyle(server, bytes.length, `filename ${b64('t.txt')}`)
    expect(created.status).toBe(201)
    const location = created.headers.get('location')!
    expect((await patchAt(server, location, 0, bytes.subarray(0, 11))).status).toBe(204)

    await suspend()
    const patch = await patchAt(server, location, 11, bytes.subarray(11))
    expect(patch.status).toBe(403)
    expect(await patch.json()).toEqual({ error: REFUSAL })
    const head = await server.fetch(location, { method: 'HEAD', headers: { 'Tus-Resumable': '1.0.0' } })
    expect(head.status).toBe(403)
    // an unknown session is still the one 404, suspended or not
    const unknown = await server.fetch(`${location.slice(0, -4)}xxxx`, { method: 'HEAD' })
    expect(unknown.status).toBe(404)

    await resume()
    const offset = await server.fetch(location, { method: 'HEAD', headers: { 'Tus-Resumable': '1.0.0' } })
    expect(offset.headers.get('upload-offset')).toBe('11')
    const done = await patchAt(server, location, 11, bytes.subarray(11))
    expect(done.status).toBe(204)
    expect(done.headers.get('upload-cid')).toBeTruthy()
  })

  it("announcements - hidden content leaves the reprovider's roots and the routing endpoint, unless a visible tenant holds it too", async () => {
    const publish = async (text: string, org: string) => {
      const { status, body } = await upload(server, { bytes: text }, { network: 'public' }, await server.token({ org }))
      expect(status).toBe(200)
      return String(body.data.cid)
    }
    const own = await publish('only acme holds this', 'acme')
    const shared = await publish('acme and globex hold this', 'acme')
    await publish('acme and globex hold this', 'globex')
    const roots = async () => {
      const listed: string[] = []
      for await (const root of server.service.gateway.publicRoots()) listed.push(root)
      return listed
    }
    const providers = async (cid: string) => (await server.fetch(`${server.url}/routing/v1/providers/${cid}`)).status
    expect(await roots()).toEqual(expect.arrayContaining([own, shared]))
    expect([await providers(own), await providers(shared)]).toEqual([200, 200])

    expect((await admin('suspend', { reason: 'background check', hide_content: true })).status).toBe(200)
    const hidden = await roots()
    expect(hidden).not.toContain(own)
    expect(hidden).toContain(shared)
    expect([await providers(own), await providers(shared)]).toEqual([404, 200])

    await resume()
    expect(await roots()).toEqual(expect.arrayContaining([own, shared]))
    expect(await providers(own)).toBe(200)
  })
})
