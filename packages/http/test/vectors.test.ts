import { createLexicalEmbedder } from '@pinfold/embedders'
import type { TestApi } from '@pinfold/testing/test-api'
import { privateGroupWithTexts, queryGroup, startVectorApi, uploadText } from '@pinfold/testing/vectors'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

// A small, fast embedder (shared stemmed words, no model to load); the real default embedder is
// exercised once in vectors-local-embedder.test.ts.
const DOCS = [
  'The garden needs watering: tomatoes and roses wilt in the summer heat.',
  'Invoice 7731 for the bicycle repair, paid by card.',
  'Our cat sleeps on the sofa all afternoon and chases mice at night.',
]

describe('vectors over HTTP', () => {
  let server: TestApi
  beforeAll(async () => {
    server = await startVectorApi({ embedder: createLexicalEmbedder() })
  })
  afterAll(() => server.close())

  const vectorize = (fileId: string, auth?: string) =>
    server.api(`/v3/vectorize/files/${fileId}`, { method: 'POST', auth })

  async function vectorizedGroup(texts: readonly string[] = DOCS, auth?: string) {
    const group = await privateGroupWithTexts(server, texts, auth)
    for (const file of group.files) expect((await vectorize(file.id, auth)).status).toBe(200)
    return group
  }

  it('POST /v3/vectorize/files - answers {success: true} and marks the file vectorized', async () => {
    const { files } = await privateGroupWithTexts(server, [DOCS[0]!])
    const res = await vectorize(files[0]!.id)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ success: true, status: true })
    const file = await server.api(`/v3/files/private/${files[0]!.id}`)
    expect(((await file.json()) as { data: { vectorized: boolean } }).data.vectorized).toBe(true)
  })

  it('POST /v3/vectorize/files - racing at the vectorized-files limit less one: exactly one stores vectors', async () => {
    const org = 'vector-quota'
    const auth = await server.token({ org })
    await server.service.quotas.setTenantLimits(org, { vectorizedFiles: 2 })
    const { files } = await privateGroupWithTexts(server, [...DOCS, 'a fourth text', 'a fifth text'], auth)
    expect((await vectorize(files[0]!.id, auth)).status).toBe(200)
    const racing = await Promise.all(files.slice(1).map((file) => vectorize(file.id, auth)))
    expect(racing.map((r) => r.status).sort()).toEqual([200, 403, 403, 403])
    for (const refused of racing.filter((r) => r.status === 403)) {
      expect(await refused.json()).toEqual({
        error: 'vectorized file limit reached: the account may vectorize 2 files',
      })
    }
    const limits = await server.api('/v3/data/limits', { auth })
    expect(((await limits.json()) as { data: { usage: { vectorized_files: number } } }).data.usage).toMatchObject({
      vectorized_files: 2,
    })
    // a file already vectorized is vectorized again at the limit
    expect((await vectorize(files[0]!.id, auth)).status).toBe(200)
  })

  it('POST /v3/vectorize/groups/query - returns the best matches first as {data: {count, matches}}', async () => {
    const { groupId, files } = await vectorizedGroup()
    const { status, body } = await queryGroup(server, groupId, { text: 'bicycle repair invoice' })
    expect(status).toBe(200)
    expect(body.data.count).toBe(body.data.matches.length)
    expect(body.data.matches[0]).toEqual({ file_id: files[1]!.id, cid: files[1]!.cid, score: expect.any(Number) })
    const scores = body.data.matches.map((m) => m.score)
    expect(scores).toEqual([...scores].sort((a, b) => b - a))
    expect(scores[0]!).toBeGreaterThan(scores[1]!)
  })

  it('POST /v3/vectorize/groups/query - limit caps the matches; above 20 is a 400', async () => {
    const { groupId } = await vectorizedGroup()
    const limited = await queryGroup(server, groupId, { text: 'cat', limit: 2 })
    expect(limited.body.data).toMatchObject({ count: 2 })
    expect(limited.body.data.matches).toHaveLength(2)
    const tooMany = await queryGroup(server, groupId, { text: 'cat', limit: 21 })
    expect(tooMany.status).toBe(400)
    expect(tooMany.body.error).toMatch(/limit/)
    const noText = await queryGroup(server, groupId, {})
    expect(noText.status).toBe(400)
  })

  it('POST /v3/vectorize/files - a file in no group is a 400', async () => {
    const file = await uploadText(server, DOCS[2]!)
    const res = await vectorize(file.id)
    expect(res.status).toBe(400)
    expect(((await res.json()) as { error: string }).error).toMatch(/group/)
  })

  it('POST /v3/vectorize/files - an unknown id is a 404', async () => {
    expect((await vectorize('0190b4c4-0000-7000-8000-000000000000')).status).toBe(404)
    expect((await vectorize('not-an-id')).status).toBe(404)
  })

  it('POST /v3/vectorize/files - re-vectorizing is idempotent', async () => {
    const { groupId, files } = await vectorizedGroup()
    const before = await queryGroup(server, groupId, { text: 'roses tomatoes garden' })
    expect((await vectorize(files[0]!.id)).status).toBe(200)
    expect((await vectorize(files[0]!.id)).status).toBe(200)
    const after = await queryGroup(server, groupId, { text: 'roses tomatoes garden' })
    expect(after.body).toEqual(before.body)
    expect(after.body.data.matches.map((m) => m.file_id)).toContain(files[0]!.id)
  })

  it('DELETE /v3/vectorize/files - answers {success: true} and takes the file out of query results', async () => {
    const { groupId, files } = await vectorizedGroup()
    const res = await server.api(`/v3/vectorize/files/${files[2]!.id}`, { method: 'DELETE' })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ success: true, status: true })
    const { body } = await queryGroup(server, groupId, { text: 'cat sofa mice' })
    expect(body.data.matches.map((m) => m.file_id)).not.toContain(files[2]!.id)
    expect(body.data.count).toBe(2)
  })

  it('DELETE /v3/files - deleting a file removes its vectors', async () => {
    const { groupId, files } = await vectorizedGroup()
    expect((await server.api(`/v3/files/private/${files[1]!.id}`, { method: 'DELETE' })).status).toBe(200)
    const { body } = await queryGroup(server, groupId, { text: 'bicycle repair invoice' })
    expect(body.data.matches.map((m) => m.file_id).sort()).toEqual([files[0]!.id, files[2]!.id].sort())
    expect(body.data.count).toBe(2)
  })

  it('PUT/DELETE /v3/groups/ids - moving a file to another group moves its vectors', async () => {
    const { groupId, files } = await vectorizedGroup()
    const other = await privateGroupWithTexts(server, [])
    const moved = await server.api(`/v3/groups/private/${other.groupId}/ids/${files[1]!.id}`, { method: 'PUT' })
    expect(moved.status).toBe(200)
    const inOld = await queryGroup(server, groupId, { text: 'bicycle repair invoice' })
    expect(inOld.body.data.matches.map((m) => m.file_id)).not.toContain(files[1]!.id)
    const inNew = await queryGroup(server, other.groupId, { text: 'bicycle repair invoice' })
    expect(inNew.body.data.matches.map((m) => m.file_id)).toEqual([files[1]!.id])
    const removed = await server.api(`/v3/groups/private/${other.groupId}/ids/${files[1]!.id}`, { method: 'DELETE' })
    expect(removed.status).toBe(200)
    expect((await queryGroup(server, other.groupId, { text: 'bicycle' })).body.data).toEqual({ count: 0, matches: [] })
  })

  it("vectors - tenants never see each other's files or vectors", async () => {
    const mallory = await server.token({ sub: 'mallory', org: 'evil' })
    const alices = await vectorizedGroup()
    const mallorys = await vectorizedGroup(DOCS, mallory)
    expect((await vectorize(alices.files[0]!.id, mallory)).status).toBe(404)
    const deleted = await server.api(`/v3/vectorize/files/${alices.files[0]!.id}`, { method: 'DELETE', auth: mallory })
    expect(deleted.status).toBe(404)
    expect((await queryGroup(server, alices.groupId, { text: 'cat' }, mallory)).status).toBe(404)
    const own = await queryGroup(server, mallorys.groupId, { text: 'cat sofa' }, mallory)
    const ids = own.body.data.matches.map((m) => m.file_id)
    expect(ids.sort()).toEqual(mallorys.files.map((f) => f.id).sort())
    for (const file of alices.files) expect(ids).not.toContain(file.id)
  })

  it('vectors - need a token with org:write', async () => {
    const { groupId, files } = await privateGroupWithTexts(server, [DOCS[0]!])
    const readOnly = await server.token({ scopes: ['org:read', 'org:files:write', 'org:groups:write'] })
    expect((await vectorize(files[0]!.id, readOnly)).status).toBe(403)
    expect((await queryGroup(server, groupId, { text: 'garden' }, readOnly)).status).toBe(403)
    expect((await server.api(`/v3/vectorize/files/${files[0]!.id}`, { method: 'POST', auth: null })).status).toBe(401)
  })
})

describe('vectors without an embedder', () => {
  let server: TestApi
  beforeAll(async () => {
    server = await startVectorApi({ embedder: null })
  })
  afterAll(() => server.close())

  it('POST /v3/vectorize - answers 503 saying no embedder is configured', async () => {
    const { groupId, files } = await privateGroupWithTexts(server, [DOCS[0]!])
    const res = await server.api(`/v3/vectorize/files/${files[0]!.id}`, { method: 'POST' })
    expect(res.status).toBe(503)
    expect(((await res.json()) as { error: string }).error).toMatch(/no embedder configured/)
    expect((await queryGroup(server, groupId, { text: 'garden' })).status).toBe(503)
  })
})
