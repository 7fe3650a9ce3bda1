import { createUrlSigner } from '@pinfold/core'
import { kuboCid } from '@pinfold/testing/bytes'
import { form, startTestApi, TEST_SECRET, type TestApi } from '@pinfold/testing/test-api'
import { folderForm, pngBytes } from '@pinfold/testing/uploads'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

interface Upload {
  id: string
  cid: string
  name: string
  network: string
  group_id: string | null
  keyvalues: Record<string, string>
  mime_type: string
  user_id: string
}

describe('signed upload URLs', () => {
  let server: TestApi
  beforeAll(async () => {
    server = await startTestApi()
  })
  afterAll(() => server.close())

  const now = () => Math.floor(Date.now() / 1000)

  async function signUrl(body: Record<string, unknown>): Promise<string> {
    const res = await server.api('/v3/files/sign', {
      method: 'POST',
      body: JSON.stringify({ date: now(), expires: 600, ...body }),
    })
    expect(res.status).toBe(200)
    return ((await res.json()) as { data: string }).data
  }

  /** POSTs straight to a signed URL, with no Authorization header unless `authorization` is given. */
  async function postTo(url: string, body: FormData, authorization?: string) {
    const res = await server.fetch(url, {
      method: 'POST',
      body,
      headers: authorization === undefined ? {} : { authorization },
    })
    return { status: res.status, body: (await res.json()) as { data: Upload; error?: string } }
  }

  it('sign - answers {data: url} of the Pinata shape under the server URL', async () => {
    const url = new URL(await signUrl({ max_file_size: 1000 }))
    expect(url.origin).toBe(server.url)
    expect(url.pathname).toMatch(/^\/v3\/files\/[0-9a-f-]{36}$/)
    for (const param of ['X-Algorithm', 'X-Date', 'X-Expires', 'X-Method', 'X-Signature']) {
      expect(url.searchParams.get(param), param).toBeTruthy()
    }
    expect(JSON.parse(url.searchParams.get('X-Method')!)).toEqual(['HEAD', 'PATCH', 'POST'])
  })

  it('upload - X-Upload-Option-Cid-Version on a signed URL applies to a multipart upload too (signature intact)', async () => {
    const url = new URL(await signUrl({ max_file_size: 1000 }))
    url.searchParams.set('X-Upload-Option-Cid-Version', 'v0')
    const body = form({ network: 'public' }, { bytes: 'signed as v0', name: 'v0.txt' })
    const res = await postTo(url.toString(), body)
    expect(res.status).toBe(200)
    expect(res.body.data.cid).toBe(await kuboCid(new TextEncoder().encode('signed as v0'), 'v0'))
    url.searchParams.set('X-Upload-Option-Cid-Version', 'v9')
    expect((await postTo(url.toString(), form({}, { bytes: 'x' }))).status).toBe(400)
  })

  it('sign - needs a token with org:files:write', async () => {
    const anonymous = await server.api('/v3/files/sign', { method: 'POST', body: '{"expires":60}', auth: null })
    expect(anonymous.status).toBe(401)
    const reader = await server.token({ scopes: ['org:files:read'] })
    const res = await server.api('/v3/files/sign', { method: 'POST', body: '{"expires":60}', auth: reader })
    expect(res.status).toBe(403)
  })

  it('sign - refuses a missing expires, a URL already expired and a foreign group', async () => {
    const missing = await server.api('/v3/files/sign', { method: 'POST', body: '{}' })
    expect(missing.status).toBe(400)
    const past = await server.api('/v3/files/sign', {
      method: 'POST',
      body: JSON.stringify({ date: now() - 1000, expires: 10 }),
    })
    expect(past.status).toBe(400)
    const other = await server.token({ org: 'globex' })
    const group = await server.api('/v3/groups/public', { method: 'POST', body: '{"name":"g"}', auth: other })
    const groupId = ((await group.json()) as { data: { id: string } }).data.id
    const foreign = await server.api('/v3/files/sign', {
      method: 'POST',
      body: JSON.stringify({ expires: 60, group_id: groupId }),
    })
    expect(foreign.status).toBe(404)
  })

  it('upload - needs no bearer token, ignores a bad or empty one, and files the upload under the signer', async () => {
    const url = await signUrl({})
    const plain = await postTo(url, form({ network: 'public' }, { bytes: `signed-${Math.random()}`, name: 'a.txt' }))
    expect(plain.status).toBe(200)
    expect(plain.body.data.user_id).toBe('alice')
    const mine = await server.api(`/v3/files/public/${plain.body.data.id}`)
    expect(mine.status).toBe(200)
    const garbage = await postTo(url, form({ network: 'public' }, { bytes: `g-${Math.random()}` }), 'Bearer garbage')
    expect(garbage.status).toBe(200)
    const empty = await postTo(url, form({ network: 'public' }, { bytes: `e-${Math.random()}` }), 'Bearer')
    expect(empty.status).toBe(200)
  })

  it('upload - filename, keyvalues, group and network baked into the URL win over the form fields', async () => {
    const group = await server.api('/v3/groups/private', { method: 'POST', body: '{"name":"signed"}' })
    const groupId = ((await group.json()) as { data: { id: string } }).data.id
    const url = await signUrl({
      filename: 'baked.txt',
      keyvalues: { source: 'signed' },
      group_id: groupId,
      network: 'private',
    })
    const res = await postTo(
      url,
      form(
        { network: 'public', name: 'client.txt', keyvalues: JSON.stringify({ source: 'client' }) },
        { bytes: `baked-${Math.random()}` },
      ),
    )
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({
      name: 'baked.txt',
      keyvalues: { source: 'signed' },
      group_id: groupId,
      network: 'private',
    })
  })

  it('upload - max_file_size is enforced while the bytes stream: 413 and nothing stored', async () => {
    const url = await signUrl({ max_file_size: 1000 })
    const before = server.blobCount()
    const over = await postTo(url, form({ network: 'public' }, { bytes: new Uint8Array(1001) }))
    expect(over.status).toBe(413)
    const huge = await postTo(url, form({ network: 'public' }, { bytes: new Uint8Array(8 * 1024 * 1024) }))
    expect(huge.status).toBe(413)
    expect(server.blobCount()).toBe(before)
    const exact = await postTo(url, form({ network: 'public' }, { bytes: new Uint8Array(1000).fill(7) }))
    expect(exact.status).toBe(200)
  })

  it('upload - allow_mime_types admits exact types and wildcards, refuses others with nothing stored', async () => {
    const url = await signUrl({ allow_mime_types: ['image/*', 'application/json'] })
    const png = await postTo(url, form({}, { bytes: pngBytes(), name: 'a.png', type: 'image/png' }))
    expect(png.status).toBe(200)
    expect(png.body.data.mime_type).toBe('image/png')
    const json = await postTo(url, form({}, { bytes: '{"a":1}', name: 'a.json', type: 'application/json' }))
    expect(json.status).toBe(200)
    const before = server.blobCount()
    const text = await postTo(url, form({}, { bytes: 'plain text', name: 'a.txt', type: 'text/plain' }))
    expect(text.status).toBe(400)
    expect(text.body.error).toContain('text/plain')
    expect(server.blobCount()).toBe(before)
  })

  it('upload - a folder needs the literal "directory"; wildcards do not grant it', async () => {
    const files = [{ path: `signed-dir-${Math.random()}/a.txt`, bytes: 'a' }]
    const before = server.blobCount()
    for (const allowed of [['image/*'], ['*'], ['*/*']]) {
      const res = await postTo(await signUrl({ allow_mime_types: allowed }), folderForm(files, { network: 'public' }))
      expect(res.status, JSON.stringify(allowed)).toBe(400)
      expect(res.body.error).toContain('directory')
    }
    expect(server.blobCount()).toBe(before)
    const ok = await postTo(
      await signUrl({ allow_mime_types: ['directory'] }),
      folderForm(files, { network: 'public' }),
    )
    expect(ok.status).toBe(200)
    expect(ok.body.data.mime_type).toBe('directory')
  })

  it('upload - an expired URL is refused with 403 before anything is stored', async () => {
    // signed with the server's secret, but its validity ended a minute ago
    const signer = createUrlSigner(TEST_SECRET, 'upload')
    const template = new URL(await signUrl({}))
    const params = new URLSearchParams(template.search)
    params.delete('X-Signature')
    params.set('X-Date', String(now() - 120))
    params.set('X-Expires', '60')
    params.set('X-Signature', signer.sign(template.pathname, params))
    const before = server.blobCount()
    const res = await postTo(`${server.url}${template.pathname}?${params}`, form({}, { bytes: 'late' }))
    expect(res.status).toBe(403)
    expect(res.body.error).toMatch(/expired/)
    expect(server.blobCount()).toBe(before)
  })

  it('upload - a tampered URL (any parameter or the path) is refused with 403; no signature is 401', async () => {
    const url = new URL(await signUrl({ max_file_size: 10 }))
    const before = server.blobCount()
    const variants: [string, (u: URL) => void][] = [
      ['X-Expires', (u) => u.searchParams.set('X-Expires', '999999')],
      ['X-Grant', (u) => u.searchParams.set('X-Grant', Buffer.from('{"t":"acme","u":"alice"}').toString('base64url'))],
      ['X-Signature', (u) => u.searchParams.set('X-Signature', flipFirstChar(u.searchParams.get('X-Signature')!))],
      ['an added parameter', (u) => u.searchParams.set('X-Extra', '1')],
      ['the path', (u) => (u.pathname = '/v3/files/00000000-0000-7000-8000-000000000000')],
    ]
    for (const [what, change] of variants) {
      const tampered = new URL(url)
      change(tampered)
      const res = await postTo(tampered.toString(), form({}, { bytes: 'tampered upload that is large' }))
      expect(res.status, what).toBe(403)
    }
    const unsigned = new URL(url)
    unsigned.searchParams.delete('X-Signature')
    expect((await postTo(unsigned.toString(), form({}, { bytes: 'x' }))).status).toBe(401)
    expect(server.blobCount()).toBe(before)
  })

  it('upload - the client may add X-Upload-Option-Cid-Version without breaking the signature', async () => {
    const url = new URL(await signUrl({}))
    url.searchParams.set('X-Upload-Option-Cid-Version', 'v1')
    const res = await postTo(url.toString(), form({ network: 'public' }, { bytes: 'hello world' }))
    expect(res.status).toBe(200)
    expect(res.body.data.cid).toBe('bafkreifzjut3te2nhyekklss27nh3k72ysco7y32koao5eei66wof36n5e')
  })

  it('routes - /v3/files/{network}/{id} still reaches the file routes', async () => {
    const res = await server.api('/v3/files/public/00000000-0000-7000-8000-000000000000')
    expect(res.status).toBe(404)
    const list = await server.api('/v3/files/public')
    expect(list.status).toBe(200)
  })
})

/** A different first character, always: replacing it with a fixed one left the URL intact 1 time in 64. */
function flipFirstChar(signature: string): string {
  return `${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`
}
