import { startTestApi, type TestApi, upload } from '@pinfold/testing/test-api'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

interface WireFile {
  id: string
  name: string
  cid: string
  mime_type: string
  group_id: string | null
  keyvalues: Record<string, string>
  expires_at: number | null
}

describe('files', () => {
  let server: TestApi
  beforeAll(async () => {
    server = await startTestApi()
  })
  afterAll(() => server.close())

  const list = async (network: string, query = '', auth?: string) => {
    const res = await server.api(`/v3/files/${network}${query}`, { auth })
    expect(res.status).toBe(200)
    return ((await res.json()) as { data: { files: WireFile[]; next_page_token: string } }).data
  }

  it('list - pages through every file exactly once and ends with an empty token', async () => {
    const tenant = await server.token({ org: `paging-${Math.random()}` })
    const ids: string[] = []
    for (let i = 0; i < 7; i++) {
      ids.push((await upload(server, { bytes: `page ${i}` }, { network: 'public' }, tenant)).body.data.id as string)
    }
    const seen: string[] = []
    let token = ''
    let pages = 0
    do {
      const page = await list('public', `?limit=3${token ? `&pageToken=${token}` : ''}`, tenant)
      seen.push(...page.files.map((f) => f.id))
      token = page.next_page_token
      pages++
    } while (token)
    expect(pages).toBe(3)
    expect(seen).toEqual([...ids].reverse())
    const ascending = await list('public', '?order=ASC&limit=100', tenant)
    expect(ascending.files.map((f) => f.id)).toEqual(ids)
    expect(ascending.next_page_token).toBe('')
  })

  it('list - filters by name prefix, cid, mimeType, group, and keyvalues in both spellings', async () => {
    const tenant = await server.token({ org: `filters-${Math.random()}` })
    const group = (await (
      await server.api('/v3/groups/private', { method: 'POST', body: '{"name":"docs"}', auth: tenant })
    ).json()) as { data: { id: string } }
    const a = await upload(
      server,
      { bytes: 'alpha', type: 'text/plain' },
      { name: 'report-a', group_id: group.data.id, keyvalues: '{"env":"prod","team":"x"}' },
      tenant,
    )
    await upload(
      server,
      { bytes: '{"b":1}', type: 'application/json' },
      { name: 'data-b', keyvalues: '{"env":"dev"}' },
      tenant,
    )
    const names = async (query: string) => (await list('private', query, tenant)).files.map((f) => f.name)
    expect(await names('?name=report')).toEqual(['report-a'])
    expect(await names(`?cid=${a.body.data.cid}`)).toEqual(['report-a'])
    expect(await names('?mimeType=application/json')).toEqual(['data-b'])
    expect(await names(`?group=${group.data.id}`)).toEqual(['report-a'])
    expect(await names('?group=null')).toEqual(['data-b'])
    expect(await names('?keyvalues[env]=prod')).toEqual(['report-a'])
    expect(await names('?metadata[env]=dev')).toEqual(['data-b'])
    expect(await names('?keyvalues[env]=prod&keyvalues[team]=y')).toEqual([])
    expect(await names('?cidPending=true')).toEqual([])
  })

  it('list - bad query values are 400', async () => {
    for (const query of ['?limit=0', '?limit=abc', '?limit=5000', '?order=sideways', '?pageToken=%%%']) {
      const res = await server.api(`/v3/files/public${query}`)
      expect(res.status, query).toBe(400)
    }
    expect((await server.api('/v3/files/intranet')).status).toBe(400)
  })

  it('get - returns the file; another tenant or network gets 404', async () => {
    const { body } = await upload(server, { bytes: 'get me' }, { network: 'private', name: 'get-me' })
    const id = body.data.id as string
    const res = await server.api(`/v3/files/private/${id}`)
    expect(res.status).toBe(200)
    expect(((await res.json()) as { data: WireFile }).data).toMatchObject({ id, name: 'get-me', cid: body.data.cid })
    expect((await server.api(`/v3/files/public/${id}`)).status).toBe(404)
    const other = await server.token({ org: 'globex' })
    const foreign = await server.api(`/v3/files/private/${id}`, { auth: other })
    expect(foreign.status).toBe(404)
    expect(await foreign.json()).toEqual({ error: 'file not found' })
    expect((await list('private', '', other)).files.map((f) => f.id)).not.toContain(id)
  })

  it('update - changes name, merges keyvalues and sets or clears expires_at', async () => {
    const { body } = await upload(server, { bytes: 'update me' }, { keyvalues: '{"a":"1","b":"2"}' })
    const id = body.data.id as string
    const put = (payload: unknown, auth?: string) =>
      server.api(`/v3/files/private/${id}`, { method: 'PUT', body: JSON.stringify(payload), auth })
    const later = Math.floor(Date.now() / 1000) + 86_400
    const res = await put({ name: 'renamed', keyvalues: { b: null, c: 3 }, expires_at: later })
    expect(res.status).toBe(200)
    expect(((await res.json()) as { data: WireFile }).data).toMatchObject({
      name: 'renamed',
      keyvalues: { a: '1', c: '3' },
      expires_at: later,
    })
    const cleared = await put({ expires_at: null })
    expect(((await cleared.json()) as { data: WireFile }).data.expires_at).toBeNull()
    expect((await put({})).status).toBe(400)
    expect((await put({ name: '' })).status).toBe(400)
    expect((await put({ name: 42 })).status).toBe(400)
    expect((await put({ keyvalues: 'text' })).status).toBe(400)
    expect((await put({ expires_at: 'soon' })).status).toBe(400)
    expect((await put({ name: 'x' }, await server.token({ org: 'globex' }))).status).toBe(404)
    const bad = await server.api(`/v3/files/private/${id}`, { method: 'PUT', body: '{not json' })
    expect(bad.status).toBe(400)
    expect(await bad.json()).toEqual({ error: 'request body must be valid JSON' })
  })

  it('delete - answers {data: null}; the bytes go once no record references them', async () => {
    const bytes = `shared-${Math.random()}`
    const before = server.blobCount()
    const first = await upload(server, { bytes }, { network: 'public' })
    const second = await upload(server, { bytes }, { network: 'private' })
    expect(server.blobCount()).toBe(before + 1)
    const other = await server.token({ org: 'globex' })
    const foreign = await server.api(`/v3/files/public/${first.body.data.id}`, { method: 'DELETE', auth: other })
    expect(foreign.status).toBe(404)
    const res = await server.api(`/v3/files/public/${first.body.data.id}`, { method: 'DELETE' })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ data: null })
    expect(server.blobCount()).toBe(before + 1)
    await server.api(`/v3/files/private/${second.body.data.id}`, { method: 'DELETE' })
    expect(server.blobCount()).toBe(before)
    expect((await server.api(`/v3/files/private/${second.body.data.id}`, { method: 'DELETE' })).status).toBe(404)
  })
})
