import { CID_SIGNATURE_DOMAIN, CID_SIGNATURE_TYPES } from '@pinfold/core'
import { startTestApi, type TestApi, upload } from '@pinfold/testing/test-api'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

/**
 * The legacy group API (`/groups…`) and the legacy paths of swaps and signatures
 * (`/v3/ipfs/swap/{cid}`, `/v3/ipfs/signature/{cid}`) over the in-process API: the public
 * network's groups, swaps and signatures, the same records the v3 API shows.
 */

interface LegacyGroup {
  id: string
  user_id: string
  name: string
  createdAt: string
  updatedAt: string
}

describe('legacy groups, swaps and signatures', () => {
  let server: TestApi
  beforeAll(async () => {
    server = await startTestApi({ embedder: null })
  })
  afterAll(() => server?.close())

  const call = (path: string, method: string, body?: unknown, auth?: string) =>
    server.api(path, { method, ...(body !== undefined && { body: JSON.stringify(body) }), auth })
  const jsonOf = async <T>(res: Response) => (await res.json()) as T
  const createGroup = async (name: string) => jsonOf<LegacyGroup>(await call('/groups', 'POST', { name }))
  const publicFile = async (bytes: string) => {
    const { body } = await upload(server, { bytes, name: `${bytes}.txt` }, { network: 'public' })
    return { id: String(body.data.id), cid: String(body.data.cid), created_at: String(body.data.created_at) }
  }
  const groupOf = async (fileId: string) =>
    (await jsonOf<{ data: { group_id: string | null } }>(await server.api(`/v3/files/public/${fileId}`))).data.group_id

  it('create, get, rename, list and delete: unwrapped legacy shapes over the public network’s groups', async () => {
    const res = await call('/groups', 'POST', { name: 'Legacy Photos' })
    expect(res.status).toBe(200)
    const group = await jsonOf<LegacyGroup>(res)
    expect(group).toEqual({
      id: expect.any(String),
      user_id: 'acme',
      name: 'Legacy Photos',
      createdAt: expect.any(String),
      updatedAt: group.createdAt,
    })
    // the same group through the v3 API, on the public network
    const v3 = await jsonOf<{ data: { name: string } }>(await server.api(`/v3/groups/public/${group.id}`))
    expect(v3.data.name).toBe('Legacy Photos')
    expect(await jsonOf<LegacyGroup>(await server.api(`/groups/${group.id}`))).toEqual(group)

    const renamed = await jsonOf<LegacyGroup>(await call(`/groups/${group.id}`, 'PUT', { name: 'Renamed photos' }))
    expect(renamed).toMatchObject({ id: group.id, name: 'Renamed photos' })

    await createGroup('other stuff')
    await createGroup('more PHOTOS')
    const listed = async (query: string) =>
      (await jsonOf<LegacyGroup[]>(await server.api(`/groups?${query}`))).map((g) => g.name)
    expect(await listed('nameContains=photos')).toEqual(['more PHOTOS', 'Renamed photos'])
    expect(await listed('limit=1')).toEqual(['more PHOTOS'])
    expect(await listed('offset=1&limit=1')).toEqual(['other stuff'])
    expect(await listed('offset=3')).toEqual([])

    const deleted = await call(`/groups/${group.id}`, 'DELETE')
    expect(deleted.status).toBe(200)
    expect(await deleted.text()).toBe('OK')
    expect((await server.api(`/groups/${group.id}`)).status).toBe(404)
  })

  it('PUT and DELETE /groups/{id}/cids move every public file of each CID in and out', async () => {
    const group = await createGroup('cids')
    const a = await publicFile('group member a')
    const b = await publicFile('group member b')
    const add = await call(`/groups/${group.id}/cids`, 'PUT', { cids: [a.cid, b.cid] })
    expect(add.status).toBe(200)
    expect(await add.text()).toBe('OK')
    expect([await groupOf(a.id), await groupOf(b.id)]).toEqual([group.id, group.id])
    const remove = await call(`/groups/${group.id}/cids`, 'DELETE', { cids: [a.cid] })
    expect(await remove.text()).toBe('OK')
    expect([await groupOf(a.id), await groupOf(b.id)]).toEqual([null, group.id])
  })

  it('answers 400 and 404 without changing anything; tenants never see each other’s groups', async () => {
    const group = await createGroup('guarded')
    const a = await publicFile('guarded member')
    expect((await call('/groups', 'POST', {})).status).toBe(400)
    expect((await call(`/groups/${group.id}`, 'PUT', { name: '' })).status).toBe(400)
    expect((await call(`/groups/${group.id}/cids`, 'PUT', { cids: [] })).status).toBe(400)
    expect((await call(`/groups/${group.id}/cids`, 'PUT', { cids: 'x' })).status).toBe(400)
    // one unknown CID: nothing is added, not even the known one
    const unknown = 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy'
    expect((await call(`/groups/${group.id}/cids`, 'PUT', { cids: [a.cid, unknown] })).status).toBe(404)
    expect(await groupOf(a.id)).toBeNull()
    expect((await server.api('/groups?limit=0')).status).toBe(400)
    expect((await server.api('/groups/not-a-group')).status).toBe(404)
    const other = await server.token({ org: 'other-org' })
    expect((await server.api(`/groups/${group.id}`, { auth: other })).status).toBe(404)
    expect((await call(`/groups/${group.id}`, 'DELETE', undefined, other)).status).toBe(404)
    expect(await jsonOf<unknown[]>(await server.api('/groups', { auth: other }))).toEqual([])
    const filesOnly = await server.token({ scopes: ['org:files:write'] })
    expect((await call('/groups', 'POST', { name: 'x' }, filesOnly)).status).toBe(403)
  })

  it('/v3/ipfs/swap/{cid}: add, history and delete in data, camelCase; 404 for a CID not held', async () => {
    const a = await publicFile('swap from')
    const b = await publicFile('swap to')
    const put = await call(`/v3/ipfs/swap/${a.cid}`, 'PUT', { swapCid: b.cid })
    expect(put.status).toBe(200)
    const swap = (await jsonOf<{ data: { mappedCid: string; createdAt: string } }>(put)).data
    expect(swap).toEqual({ mappedCid: b.cid, createdAt: expect.any(String) })
    const history = await jsonOf<{ data: unknown[] }>(await server.api(`/v3/ipfs/swap/${a.cid}?domain=gw.example`))
    expect(history.data).toEqual([swap])
    // the same swap the v3 API shows
    const v3 = await jsonOf<{ data: { mapped_cid: string }[] }>(await server.api(`/v3/files/public/swap/${a.cid}`))
    expect(v3.data.map((s) => s.mapped_cid)).toEqual([b.cid])
    expect((await call(`/v3/ipfs/swap/${a.cid}`, 'DELETE')).status).toBe(200)
    expect((await call(`/v3/ipfs/swap/${a.cid}`, 'DELETE')).status).toBe(404)
    const unknown = 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy'
    expect((await call(`/v3/ipfs/swap/${unknown}`, 'PUT', { swapCid: b.cid })).status).toBe(404)
    expect((await call(`/v3/ipfs/swap/${a.cid}`, 'PUT', {})).status).toBe(400)
  })

  it('/v3/ipfs/signature/{cid}: add (with the signer’s address), get and delete; 400 without the address', async () => {
    const file = await publicFile('signed content')
    const account = privateKeyToAccount(`0x${'22'.repeat(32)}`)
    const signature = await account.signTypedData({
      domain: CID_SIGNATURE_DOMAIN,
      types: CID_SIGNATURE_TYPES,
      primaryType: 'Sign',
      message: { address: account.address, cid: file.cid, date: file.created_at },
    })
    const at = `/v3/ipfs/signature/${file.cid}`
    const withoutAddress = await call(at, 'POST', { signature })
    expect(withoutAddress.status).toBe(400)
    expect(((await withoutAddress.json()) as { error: string }).error).toMatch(/address/)
    expect((await server.api(at)).status).toBe(404)
    const added = await call(at, 'POST', { signature, address: account.address })
    expect(added.status).toBe(200)
    expect((await jsonOf<{ data: unknown }>(added)).data).toEqual({ cid: file.cid, signature })
    expect((await jsonOf<{ data: unknown }>(await server.api(at))).data).toEqual({ cid: file.cid, signature })
    expect((await jsonOf<{ data: unknown }>(await server.api(`/v3/files/public/signature/${file.cid}`))).data).toEqual({
      cid: file.cid,
      signature,
    })
    expect((await call(at, 'DELETE')).status).toBe(200)
    expect((await call(at, 'DELETE')).status).toBe(404)
  })
})
