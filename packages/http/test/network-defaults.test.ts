import { randomBytes } from 'node:crypto'
import { form, startTestApi, type TestApi } from '@pinfold/testing/test-api'
import { b64, cidOf, createSdkStyle, patchAt } from '@pinfold/testing/tus'
import { folderForm } from '@pinfold/testing/uploads'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

/**
 * Every way in that lets a client choose the network stores on the private one when it does not
 * choose: public content is served to anyone by its CID and copied by peers, so it is never the
 * result of leaving a field out. (The console's upload view: server/test/console; the CLI:
 * server/test/cli.)
 */
describe('network defaults: private unless public is asked for', () => {
  let server: TestApi
  beforeAll(async () => {
    server = await startTestApi()
  })
  afterAll(() => server.close())

  /** Which networks list a file of this CID. */
  const heldOn = async (cid: string) => {
    const networks: string[] = []
    for (const network of ['public', 'private']) {
      const res = await server.api(`/v3/files/${network}?cid=${cid}`)
      const files = ((await res.json()) as { data: { files: unknown[] } }).data.files
      if (files.length > 0) networks.push(network)
    }
    return networks
  }
  const sign = async (body: Record<string, unknown>) => {
    const res = await server.api('/v3/files/sign', {
      method: 'POST',
      body: JSON.stringify({ date: Math.floor(Date.now() / 1000), expires: 600, ...body }),
    })
    expect(res.status).toBe(200)
    return ((await res.json()) as { data: string }).data
  }

  it('API - a multipart upload with no network field is private, a file or a folder', async () => {
    const file = await server.api('/v3/files', { method: 'POST', body: form({}, { bytes: randomBytes(100) }) })
    expect(file.status).toBe(200)
    const stored = ((await file.json()) as { data: { cid: string; network: string } }).data
    expect(stored.network).toBe('private')
    expect(await heldOn(stored.cid)).toEqual(['private'])
    const folder = await server.api('/v3/files', {
      method: 'POST',
      body: folderForm([
        { path: 'site/a.txt', bytes: randomBytes(10) },
        { path: 'site/b.txt', bytes: randomBytes(10) },
      ]),
    })
    expect(folder.status).toBe(200)
    const tree = ((await folder.json()) as { data: { cid: string; network: string } }).data
    expect(tree.network).toBe('private')
    expect(await heldOn(tree.cid)).toEqual(['private'])
  })

  it('signed URL - signed with no network and posted with none: private', async () => {
    const url = await sign({ max_file_size: 1000 })
    const res = await server.fetch(url, { method: 'POST', body: form({}, { bytes: randomBytes(100) }) })
    expect(res.status).toBe(200)
    const stored = ((await res.json()) as { data: { cid: string; network: string } }).data
    expect(stored.network).toBe('private')
    expect(await heldOn(stored.cid)).toEqual(['private'])
  })

  it('tus - an upload created with no network metadata is private, with a token or through a signed URL', async () => {
    const bytes = randomBytes(300)
    const created = await createSdkStyle(server, bytes.length, `filename ${b64('no-network.bin')}`)
    expect(created.status).toBe(201)
    const done = await patchAt(server, created.headers.get('location')!, 0, bytes)
    expect(done.status).toBe(204)
    expect(done.headers.get('upload-cid')).toBe(await cidOf(bytes))
    expect(await heldOn(await cidOf(bytes))).toEqual(['private'])

    const signed = await sign({ max_file_size: 1000 })
    const other = randomBytes(400)
    const viaSigned = await server.fetch(signed, {
      method: 'POST',
      headers: { 'Upload-Length': String(other.length), 'Upload-Metadata': `filename ${b64('signed.bin')}` },
    })
    expect(viaSigned.status).toBe(201)
    expect((await patchAt(server, viaSigned.headers.get('location')!, 0, other)).status).toBe(204)
    expect(await heldOn(await cidOf(other))).toEqual(['private'])
  })
})
