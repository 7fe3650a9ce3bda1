import type { PinataSDK, UploadResponse } from 'pinata'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pinataFor } from '../support/sdk.js'
import { startTestServer, type TestServer } from '../support/server.js'

const ids = (items: readonly { id: string }[]) => items.map((item) => item.id).sort()

describe('official SDK - files', () => {
  let server: TestServer
  let pinata: PinataSDK
  let groupId: string
  let uploads: UploadResponse[]
  beforeAll(async () => {
    server = await startTestServer()
    pinata = pinataFor(server.url, await server.token())
    groupId = (await pinata.groups.public.create({ name: 'sdk-files-group' })).id
    uploads = [
      await pinata.upload.public
        .file(new File(['alpha'], 'alpha.txt', { type: 'text/plain' }))
        .keyvalues({ env: 'prod', team: 'a' })
        .group(groupId),
      await pinata.upload.public
        .file(new File(['beta'], 'beta.txt', { type: 'text/plain' }))
        .keyvalues({ env: 'dev', team: 'a' }),
      await pinata.upload.public.json({ gamma: true }).name('gamma.json').keyvalues({ env: 'prod', team: 'b' }),
      await pinata.upload.public
        .file(new File([new Uint8Array([1, 2, 3])], 'delta.bin', { type: 'application/octet-stream' }))
        .group(groupId),
      await pinata.upload.public.file(new File(['epsilon'], 'alphabet.txt', { type: 'text/plain' })),
    ]
  })
  afterAll(() => server.close())

  it('files.public.list - one page returns everything with an empty next_page_token', async () => {
    const page = await pinata.files.public.list()
    expect(ids(page.files)).toEqual(ids(uploads))
    expect(page.next_page_token).toBe('')
    const alpha = page.files.find((f) => f.id === uploads[0]!.id)
    expect(alpha).toMatchObject({
      name: 'alpha.txt',
      cid: uploads[0]!.cid,
      size: 5,
      number_of_files: 1,
      mime_type: 'text/plain',
      keyvalues: { env: 'prod', team: 'a' },
      group_id: groupId,
      created_at: expect.any(String),
    })
  })

  it('files.public.list - name, cid, mimeType, group, noGroup and keyvalues filters select the right files', async () => {
    const [alpha, beta, gamma, delta, alphabet] = uploads as [UploadResponse, ...UploadResponse[]]
    expect(ids((await pinata.files.public.list().name('alpha')).files)).toEqual(ids([alpha, alphabet!]))
    expect(ids((await pinata.files.public.list().cid(beta!.cid)).files)).toEqual(ids([beta!]))
    expect(ids((await pinata.files.public.list().mimeType('application/octet-stream')).files)).toEqual(ids([delta!]))
    expect(ids((await pinata.files.public.list().mimeType('application/json')).files)).toEqual(ids([gamma!]))
    expect(ids((await pinata.files.public.list().group(groupId)).files)).toEqual(ids([alpha, delta!]))
    expect(ids((await pinata.files.public.list().noGroup(true)).files)).toEqual(ids([beta!, gamma!, alphabet!]))
    expect(ids((await pinata.files.public.list().keyvalues({ env: 'prod' })).files)).toEqual(ids([alpha, gamma!]))
    expect(ids((await pinata.files.public.list().keyvalues({ env: 'prod', team: 'b' })).files)).toEqual(ids([gamma!]))
    expect(ids((await pinata.files.public.list().name('alpha').group(groupId)).files)).toEqual(ids([alpha]))
    // every CID is known when an upload returns: nothing is ever pending
    expect((await pinata.files.public.list().cidPending(true)).files).toEqual([])
    // private files are a separate network
    expect((await pinata.files.private.list()).files).toEqual([])
  })

  it("files.public.list - order ASC and DESC are each other's reverse", async () => {
    const asc = (await pinata.files.public.list().order('ASC')).files.map((f) => f.id)
    const desc = (await pinata.files.public.list().order('DESC')).files.map((f) => f.id)
    expect(asc).toHaveLength(uploads.length)
    expect(desc).toEqual([...asc].reverse())
  })

  it('files.public.list - limit and pageToken page through; .all() and for await terminate with everything', async () => {
    const first = await pinata.files.public.list().limit(2)
    expect(first.files).toHaveLength(2)
    expect(first.next_page_token).toBeTruthy()
    const second = await pinata.files.public.list().limit(2).pageToken(first.next_page_token)
    expect(second.files).toHaveLength(2)
    expect(ids(second.files)).not.toContain(first.files[0]!.id)

    const all = await pinata.files.public.list().limit(2).all()
    expect(all).toHaveLength(uploads.length)
    expect(ids(all)).toEqual(ids(uploads))

    const iterated: string[] = []
    for await (const file of pinata.files.public.list().limit(3).keyvalues({ team: 'a' })) iterated.push(file.id)
    expect(iterated.sort()).toEqual(ids([uploads[0]!, uploads[1]!]))
  })

  it('files.private - get, update (name, keyvalues, expires_at) visible in get, delete', async () => {
    const file = await pinata.upload.private.file(new File(['private bytes'], 'private.txt', { type: 'text/plain' }))
    expect(file.network).toBe('private')
    expect(await pinata.files.private.get(file.id)).toMatchObject({ id: file.id, cid: file.cid, name: 'private.txt' })
    await expect(pinata.files.public.get(file.id)).rejects.toMatchObject({ statusCode: 404 })

    const expiresAt = Math.floor(Date.now() / 1000) + 3600
    const updated = await pinata.files.private.update({
      id: file.id,
      name: 'renamed.txt',
      keyvalues: { stage: 'final' },
      expires_at: expiresAt,
    })
    expect(updated).toMatchObject({ id: file.id, name: 'renamed.txt', keyvalues: { stage: 'final' } })
    const got = await pinata.files.private.get(file.id)
    expect(got).toMatchObject({ name: 'renamed.txt', keyvalues: { stage: 'final' }, expires_at: expiresAt })
    expect((await pinata.files.private.list().keyvalues({ stage: 'final' })).files.map((f) => f.id)).toEqual([file.id])

    const other = await pinata.upload.private.file(new File(['more private'], 'more.txt', { type: 'text/plain' }))
    const missing = '01900000-0000-7000-8000-000000000000'
    const deleted = await pinata.files.private.delete([file.id, other.id, missing])
    expect(deleted).toEqual([
      { id: file.id, status: 'OK' },
      { id: other.id, status: 'OK' },
      // the SDK records a failed delete in `status` instead of throwing
      { id: missing, status: expect.not.stringMatching(/^OK$/) },
    ])
    await expect(pinata.files.private.get(file.id)).rejects.toMatchObject({ statusCode: 404 })
    expect((await pinata.files.private.list()).files).toEqual([])
  })

  it('files.public - addSwap, getSwapHistory, deleteSwap; the shared gateway keeps serving each CID its own bytes', async () => {
    const original = await pinata.upload.public.file(new File(['version one'], 'v1.txt', { type: 'text/plain' }))
    const replacement = await pinata.upload.public.file(new File(['version two'], 'v2.txt', { type: 'text/plain' }))

    const swap = await pinata.files.public.addSwap({ cid: original.cid, swapCid: replacement.cid })
    expect(swap).toEqual({ mapped_cid: replacement.cid, created_at: expect.any(String) })
    const history = await pinata.files.public.getSwapHistory({ cid: original.cid, domain: new URL(server.url).host })
    expect(history).toEqual([swap])
    // swaps apply on the tenant's own gateway hosts only (gateway-domains.test.ts)
    expect((await pinata.gateways.public.get(original.cid)).data).toBe('version one')

    expect(await pinata.files.public.deleteSwap(original.cid)).toBe('OK')
    expect((await pinata.gateways.public.get(original.cid)).data).toBe('version one')
    await expect(pinata.files.public.deleteSwap(original.cid)).rejects.toThrow('CID not pinned to account')
  })
})
