import { startTestApi, type TestApi, upload } from '@pinfold/testing/test-api'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

/**
 * Pinata's legacy pinning routes (`/pinning/…`) over the in-process API, each checked against the
 * v3 operation it maps onto: the file an upload makes, the pin-by-CID queue, file updates.
 */

const MISSING_CID = 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy'

describe('legacy pinning API', () => {
  let server: TestApi
  beforeAll(async () => {
    server = await startTestApi({ embedder: null })
  })
  afterAll(() => server?.close())

  const call = (path: string, method: string, body?: unknown, auth?: string) =>
    server.api(path, { method, ...(body !== undefined && { body: JSON.stringify(body) }), auth })
  const jsonOf = async <T>(res: Response) => (await res.json()) as T
  const publicFile = async (id: string) =>
    (
      await jsonOf<{ data: { name: string; keyvalues: Record<string, string>; group_id: string | null } }>(
        await server.api(`/v3/files/public/${id}`),
      )
    ).data

  describe('POST /pinning/pinJSONToIPFS', () => {
    it('pins pinataContent as a JSON file on public IPFS, answered unwrapped, with the CID of those bytes', async () => {
      const content = { hello: 'world', n: [1, 2, 3] }
      const res = await call('/pinning/pinJSONToIPFS', 'POST', {
        pinataContent: content,
        pinataMetadata: { name: 'greeting', keyvalues: { env: 'test', n: 3 } },
      })
      expect(res.status).toBe(200)
      const pin = await jsonOf<Record<string, unknown>>(res)
      expect(pin).toMatchObject({
        Name: 'greeting',
        MimeType: 'application/json',
        isDuplicate: false,
        NumberOfFiles: 1,
      })
      expect(String(pin.IpfsHash)).toMatch(/^Qm/) // CIDv0 by default, as Pinata pins
      // the same bytes uploaded as a file get the same CID, and the gateway serves them
      const same = await upload(
        server,
        { bytes: JSON.stringify(content), name: 'x.json' },
        { network: 'public', cid_version: 'v0' },
      )
      expect(same.body.data.cid).toBe(pin.IpfsHash)
      const served = await server.fetch(`${server.url}/ipfs/${pin.IpfsHash}`)
      expect(await served.json()).toEqual(content)
      expect(await publicFile(String(pin.ID))).toMatchObject({ name: 'greeting', keyvalues: { env: 'test', n: '3' } })
    })

    it('cidVersion 1 and a group are honoured', async () => {
      const group = await jsonOf<{ id: string }>(await call('/groups', 'POST', { name: 'json pins' }))
      const v1 = await jsonOf<{ IpfsHash: string; GroupId: string }>(
        await call('/pinning/pinJSONToIPFS', 'POST', {
          pinataContent: { a: 1 },
          pinataOptions: { cidVersion: 1, groupId: group.id },
        }),
      )
      expect(v1.IpfsHash).toMatch(/^bafk/)
      expect(v1.GroupId).toBe(group.id)
    })

    it('refuses bad input with a 400 and pins nothing; needs org:files:write', async () => {
      const before = server.blobCount()
      for (const body of [
        {},
        { just: 'this' },
        { pinataContent: 1, pinataOptions: { cidVersion: 7 } },
        { pinataContent: 1, pinataMetadata: { keyvalues: 'no' } },
      ]) {
        const res = await call('/pinning/pinJSONToIPFS', 'POST', body)
        expect(res.status, JSON.stringify(body)).toBe(400)
        expect(await jsonOf<{ error: string }>(res)).toHaveProperty('error')
      }
      const missingGroup = await call('/pinning/pinJSONToIPFS', 'POST', {
        pinataContent: 1,
        pinataOptions: { groupId: '00000000-0000-4000-8000-000000000000' },
      })
      expect(missingGroup.status).toBe(404)
      expect(server.blobCount()).toBe(before)
      const readOnly = await server.token({ scopes: ['org:files:read'] })
      expect((await call('/pinning/pinJSONToIPFS', 'POST', { pinataContent: 1 }, readOnly)).status).toBe(403)
    })
  })

  describe('POST /pinning/pinByHash and GET /pinning/pinJobs', () => {
    it('queues a pin-by-CID request and lists it as a job with the legacy filters', async () => {
      const res = await call('/pinning/pinByHash', 'POST', {
        hashToPin: MISSING_CID,
        pinataMetadata: { name: 'legacy pin', keyvalues: { k: 'v' } },
        pinataOptions: { hostNodes: '' },
      })
      expect(res.status).toBe(200)
      const queued = await jsonOf<{ id: string; ipfsHash: string; status: string; name: string }>(res)
      expect(queued).toEqual({ id: queued.id, ipfsHash: MISSING_CID, status: 'prechecking', name: 'legacy pin' })
      // the same request the v3 queue shows
      const v3 = await jsonOf<{ data: { jobs: { id: string }[] } }>(
        await server.api(`/v3/files/public/pin_by_cid?cid=${MISSING_CID}`),
      )
      expect(v3.data.jobs.map((j) => j.id)).toEqual([queued.id])

      const second = await jsonOf<{ id: string }>(
        await call('/pinning/pinByHash', 'POST', { hashToPin: MISSING_CID, pinataMetadata: { name: 'again' } }),
      )
      const jobs = async (query: string) =>
        (
          await jsonOf<{ rows: { id: string; ipfs_pin_hash: string; status: string; keyvalues: unknown }[] }>(
            await server.api(`/pinning/pinJobs?includesCount=false&${query}`),
          )
        ).rows
      const all = await jobs(`ipfs_pin_hash=${MISSING_CID}&limit=10`)
      expect(all.map((j) => j.id)).toEqual([queued.id, second.id])
      expect(all[0]).toMatchObject({ ipfs_pin_hash: MISSING_CID, status: 'prechecking', keyvalues: { k: 'v' } })
      expect((await jobs(`ipfs_pin_hash=${MISSING_CID}&sort=DSC&limit=1`)).map((j) => j.id)).toEqual([second.id])
      expect((await jobs(`ipfs_pin_hash=${MISSING_CID}&offset=1&limit=5`)).map((j) => j.id)).toEqual([second.id])
      expect(await jobs(`ipfs_pin_hash=${MISSING_CID}&offset=2`)).toEqual([])
      expect(await jobs(`ipfs_pin_hash=${MISSING_CID}&status=retrieving`)).toEqual([])
      expect(await jobs('status=over_free_limit')).toEqual([])

      // unpin by CID removes the requests not pinned yet
      expect(await (await call(`/pinning/unpin/${MISSING_CID}`, 'DELETE')).text()).toBe('OK')
      expect(await jobs(`ipfs_pin_hash=${MISSING_CID}`)).toEqual([])
    })

    it('refuses a bad CID, bad host nodes and bad query values with a 400', async () => {
      expect((await call('/pinning/pinByHash', 'POST', { hashToPin: 'not-a-cid' })).status).toBe(400)
      expect((await call('/pinning/pinByHash', 'POST', {})).status).toBe(400)
      const badNodes = await call('/pinning/pinByHash', 'POST', {
        hashToPin: MISSING_CID,
        pinataOptions: { hostNodes: ['not a multiaddr'] },
      })
      expect(badNodes.status).toBe(400)
      for (const query of ['status=nope', 'limit=0', 'offset=-1', 'offset=10001', 'sort=sideways']) {
        const res = await server.api(`/pinning/pinJobs?${query}`)
        expect(res.status, query).toBe(400)
      }
    })
  })

  describe('PUT /pinning/hashMetadata and DELETE /pinning/unpin/{cid}', () => {
    it('renames and merges keyvalues on every public file of the CID, answering OK', async () => {
      const one = await upload(
        server,
        { bytes: 'meta target', name: 'a.txt' },
        { network: 'public', keyvalues: '{"keep":"1","drop":"x"}' },
      )
      const two = await upload(server, { bytes: 'meta target', name: 'b.txt' }, { network: 'public' })
      const cid = String(one.body.data.cid)
      const res = await call('/pinning/hashMetadata', 'PUT', {
        ipfsPinHash: cid,
        name: 'renamed',
        keyvalues: { added: 'yes', drop: null, n: 5 },
      })
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toMatch(/^text\/plain/)
      expect(await res.text()).toBe('OK')
      expect(await publicFile(String(one.body.data.id))).toMatchObject({
        name: 'renamed',
        keyvalues: { keep: '1', added: 'yes', n: '5' },
      })
      expect((await publicFile(String(one.body.data.id))).keyvalues).not.toHaveProperty('drop')
      expect(await publicFile(String(two.body.data.id))).toMatchObject({ name: 'renamed', keyvalues: { added: 'yes' } })
    })

    it('hashMetadata: 404 for a CID the account does not hold (another tenant’s included), 400 for nothing to change', async () => {
      const mine = await upload(server, { bytes: 'only mine', name: 'm.txt' }, { network: 'public' })
      const cid = String(mine.body.data.cid)
      const other = await server.token({ org: 'other-org' })
      expect((await call('/pinning/hashMetadata', 'PUT', { ipfsPinHash: cid, name: 'x' }, other)).status).toBe(404)
      expect((await call('/pinning/hashMetadata', 'PUT', { ipfsPinHash: cid })).status).toBe(400)
      expect((await call('/pinning/hashMetadata', 'PUT', { name: 'x' })).status).toBe(400)
      expect((await publicFile(String(mine.body.data.id))).name).toBe('m.txt')
    })

    it('unpin deletes every public file of the CID and answers OK; then 404', async () => {
      const a = await upload(server, { bytes: 'unpin me', name: 'a.txt' }, { network: 'public' })
      await upload(server, { bytes: 'unpin me', name: 'b.txt' }, { network: 'public' })
      const privateCopy = await upload(server, { bytes: 'unpin me', name: 'p.txt' }, { network: 'private' })
      const cid = String(a.body.data.cid)
      const other = await server.token({ org: 'other-org' })
      expect((await call(`/pinning/unpin/${cid}`, 'DELETE', undefined, other)).status).toBe(404)
      const res = await call(`/pinning/unpin/${cid}`, 'DELETE')
      expect(res.status).toBe(200)
      expect(await res.text()).toBe('OK')
      const left = await jsonOf<{ data: { files: unknown[] } }>(await server.api(`/v3/files/public?cid=${cid}`))
      expect(left.data.files).toEqual([])
      // the private file of the same CID is not the legacy API's to remove
      expect((await server.api(`/v3/files/private/${privateCopy.body.data.id}`)).status).toBe(200)
      expect((await call(`/pinning/unpin/${cid}`, 'DELETE')).status).toBe(404)
    })
  })
})
