import { startTestApi, type TestApi, upload } from '@pinfold/testing/test-api'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

/** `GET /data/pinList`, Pinata's legacy listing, over the in-process API. */

interface Row {
  id: string
  ipfs_pin_hash: string
  size: number
  user_id: string
  date_pinned: string
  date_unpinned: null
  metadata: { name: string; keyvalues: Record<string, string> }
  regions: unknown[]
  mime_type: string
  number_of_files: number
}

describe('GET /data/pinList', () => {
  let server: TestApi
  const files: { id: string; cid: string; name: string }[] = []

  beforeAll(async () => {
    server = await startTestApi({ embedder: null })
    const add = async (name: string, bytes: string, keyvalues: Record<string, string>) => {
      const { body } = await upload(
        server,
        { bytes, name },
        { network: 'public', keyvalues: JSON.stringify(keyvalues) },
      )
      files.push({ id: String(body.data.id), cid: String(body.data.cid), name })
    }
    await add('Alpha report.txt', 'a'.repeat(10), { level: '2', team: 'red' })
    await add('beta.txt', 'b'.repeat(100), { level: '10', team: 'blue' })
    await add('gamma report.txt', 'c'.repeat(1000), { level: 'high', team: 'red' })
    await upload(server, { bytes: 'private', name: 'private report.txt' }, { network: 'private' })
    await upload(
      server,
      { bytes: 'theirs', name: 'their report.txt' },
      { network: 'public' },
      await server.token({ org: 'other-org' }),
    )
  })
  afterAll(() => server?.close())

  const list = async (query: string) => {
    const res = await server.api(`/data/pinList?${query}`)
    expect(res.status, query).toBe(200)
    const body = (await res.json()) as { rows: Row[] }
    return body.rows
  }
  const names = async (query: string) => (await list(query)).map((row) => row.metadata.name)
  const kv = (spec: unknown) => `metadata[keyvalues]=${encodeURIComponent(JSON.stringify(spec))}`

  it('lists the account’s public files, newest first, in the legacy row shape (not wrapped in data)', async () => {
    const rows = await list('status=pinned&includeCount=false')
    expect(rows.map((r) => r.id)).toEqual(files.map((f) => f.id).reverse())
    const alpha = rows.at(-1)!
    expect(alpha).toEqual({
      id: files[0]!.id,
      ipfs_pin_hash: files[0]!.cid,
      size: 10,
      user_id: expect.any(String),
      date_pinned: expect.any(String),
      date_unpinned: null,
      metadata: { name: 'Alpha report.txt', keyvalues: { level: '2', team: 'red' } },
      regions: [],
      mime_type: 'text/plain',
      number_of_files: 1,
      group_id: null,
    })
    expect(Date.parse(alpha.date_pinned)).toBeGreaterThan(Date.now() - 60_000)
  })

  it('filters by name (contains, any case), CID, sizes and dates', async () => {
    expect(await names('metadata[name]=REPORT')).toEqual(['gamma report.txt', 'Alpha report.txt'])
    expect(await names(`cid=${files[1]!.cid}`)).toEqual(['beta.txt'])
    expect(await names(`hashContains=${files[1]!.cid.slice(5, 25)}`)).toEqual(['beta.txt'])
    expect(await names('pinSizeMin=50')).toEqual(['gamma report.txt', 'beta.txt'])
    expect(await names('pinSizeMin=50&pinSizeMax=500')).toEqual(['beta.txt'])
    const future = new Date(Date.now() + 60_000).toISOString()
    const past = new Date(Date.now() - 60_000).toISOString()
    expect(await names(`pinStart=${future}`)).toEqual([])
    expect(await names(`pinStart=${past}&pinEnd=${future}`)).toHaveLength(3)
  })

  it('filters by keyvalues with operators, in both query spellings', async () => {
    expect(await names(kv({ level: { value: 5, op: 'gt' } }))).toEqual(['beta.txt'])
    expect(await names(kv({ level: { value: 2, op: 'gte' } }))).toEqual(['beta.txt', 'Alpha report.txt'])
    expect(await names(kv({ level: { value: 'high', op: 'eq' } }))).toEqual(['gamma report.txt'])
    expect(await names(kv({ team: { value: 'red', op: 'ne' } }))).toEqual(['beta.txt'])
    expect(await names(kv({ team: { value: '%E%', op: 'iLike' } }))).toEqual([
      'gamma report.txt',
      'beta.txt',
      'Alpha report.txt',
    ])
    expect(await names(kv({ level: { value: 1, secondValue: 5, op: 'between' } }))).toEqual(['Alpha report.txt'])
    expect(await names(kv({ team: { value: 'red' }, level: { value: 2, op: 'lte' } }))).toEqual(['Alpha report.txt'])
    const perKey = `metadata[keyvalues][team]=${encodeURIComponent(JSON.stringify({ value: 'blue', op: 'eq' }))}`
    expect(await names(perKey)).toEqual(['beta.txt'])
  })

  it('pages by pageLimit and pageOffset, the way the SDK walks it', async () => {
    expect(await names('pageLimit=2')).toEqual(['gamma report.txt', 'beta.txt'])
    expect(await names('pageLimit=2&pageOffset=2')).toEqual(['Alpha report.txt'])
    expect(await names('pageLimit=2&pageOffset=3')).toEqual([])
  })

  it('unpinned files are not kept: status=unpinned and unpin dates list nothing', async () => {
    expect(await list('status=unpinned')).toEqual([])
    expect(await list(`unpinStart=${new Date(0).toISOString()}`)).toEqual([])
    expect(await list('status=all')).toHaveLength(3)
  })

  it('answers 400 for bad filters, and needs a files scope', async () => {
    for (const query of [
      'status=gone',
      'pageLimit=0',
      'pageLimit=1001',
      'pageOffset=-1',
      'pageSizeMin=x&pinSizeMin=x',
      'pinStart=yesterday',
      'metadata[keyvalues]=notjson',
      'metadata[keyvalues]=[1]',
      kv({ level: { value: 1, op: 'regexp' } }),
      kv({ level: { value: 1, op: 'between' } }),
      kv({ level: { value: 1, secondValue: 'x', op: 'between' } }),
      kv({ level: { value: { nested: true }, op: 'eq' } }),
      kv({ level: { value: 'ends with \\', op: 'like' } }),
      'metadata[colour]=red',
    ]) {
      const res = await server.api(`/data/pinList?${query}`)
      expect(res.status, query).toBe(400)
      expect(((await res.json()) as { error: string }).error, query).toBeTruthy()
    }
    const groupsOnly = await server.token({ scopes: ['org:groups:read'] })
    expect((await server.api('/data/pinList', { auth: groupsOnly })).status).toBe(403)
  })
})
