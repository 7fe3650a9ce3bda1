import { startTestApi, type TestApi, upload } from '@pinfold/testing/test-api'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

interface WireGroup {
  id: string
  name: string
  is_public: boolean
  created_at: string
}

describe('groups', () => {
  let server: TestApi
  beforeAll(async () => {
    server = await startTestApi()
  })
  afterAll(() => server.close())

  const create = async (network: string, body: unknown, auth?: string) => {
    const res = await server.api(`/v3/groups/${network}`, { method: 'POST', body: JSON.stringify(body), auth })
    return { status: res.status, body: (await res.json()) as { data: WireGroup & { public: boolean } } }
  }

  it('create - answers with public (as the spec says) beside is_public', async () => {
    const { status, body } = await create('public', { name: 'Photos', is_public: true })
    expect(status).toBe(200)
    expect(body.data).toMatchObject({ name: 'Photos', public: true, is_public: true })
    expect(Object.keys(body.data).sort()).toEqual(['created_at', 'id', 'is_public', 'name', 'public'])
  })

  it('create - refuses a missing name, a wrong type and a bad network', async () => {
    expect((await create('public', {})).status).toBe(400)
    expect((await create('public', { name: 'x', is_public: 'yes' })).status).toBe(400)
    expect((await create('intranet', { name: 'x' })).status).toBe(400)
  })

  it('get, update, delete - round trip, with 404 for other tenants and networks', async () => {
    const { body } = await create('private', { name: 'Before' })
    const id = body.data.id
    const other = await server.token({ org: 'globex' })
    expect((await server.api(`/v3/groups/private/${id}`, { auth: other })).status).toBe(404)
    expect((await server.api(`/v3/groups/public/${id}`)).status).toBe(404)
    const updated = await server.api(`/v3/groups/private/${id}`, {
      method: 'PUT',
      body: JSON.stringify({ name: 'After', is_public: true }),
    })
    expect(((await updated.json()) as { data: WireGroup }).data).toMatchObject({ id, name: 'After', is_public: true })
    const foreignUpdate = await server.api(`/v3/groups/private/${id}`, {
      method: 'PUT',
      body: '{"name":"mine"}',
      auth: other,
    })
    expect(foreignUpdate.status).toBe(404)
    const got = await server.api(`/v3/groups/private/${id}`)
    expect(((await got.json()) as { data: WireGroup }).data.name).toBe('After')
    expect((await server.api(`/v3/groups/private/${id}`, { method: 'DELETE', auth: other })).status).toBe(404)
    const deleted = await server.api(`/v3/groups/private/${id}`, { method: 'DELETE' })
    expect(await deleted.json()).toEqual({ data: null })
    expect((await server.api(`/v3/groups/private/${id}`)).status).toBe(404)
  })

  it('list - filters by name and isPublic and pages with an empty final token', async () => {
    const tenant = await server.token({ org: `groups-${Math.random()}` })
    for (const [name, isPublic] of [
      ['alpha', true],
      ['alpine', false],
      ['beta', true],
    ] as const) {
      await create('public', { name, is_public: isPublic }, tenant)
    }
    const names = async (query: string) => {
      const res = await server.api(`/v3/groups/public${query}`, { auth: tenant })
      const { data } = (await res.json()) as { data: { groups: WireGroup[]; next_page_token: string } }
      return { names: data.groups.map((g) => g.name), token: data.next_page_token }
    }
    expect((await names('?name=alp')).names.sort()).toEqual(['alpha', 'alpine'])
    expect((await names('?isPublic=true')).names.sort()).toEqual(['alpha', 'beta'])
    const first = await names('?limit=2')
    expect(first.names).toHaveLength(2)
    const second = await names(`?limit=2&pageToken=${first.token}`)
    expect(second).toEqual({ names: ['alpha'], token: '' })
    expect((await names('')).names).toHaveLength(3)
  })

  it('ids - adds and removes files; files of other tenants or networks are 404', async () => {
    const { body } = await create('public', { name: 'Members' })
    const groupId = body.data.id
    const file = await upload(server, { bytes: `member-${Math.random()}` }, { network: 'public' })
    const fileId = file.body.data.id as string
    const add = await server.api(`/v3/groups/public/${groupId}/ids/${fileId}`, { method: 'PUT' })
    expect(await add.json()).toEqual({ data: null })
    const listed = await server.api(`/v3/files/public?group=${groupId}`)
    expect(((await listed.json()) as { data: { files: { id: string }[] } }).data.files.map((f) => f.id)).toEqual([
      fileId,
    ])

    const privateFile = await upload(server, { bytes: 'private member' }, { network: 'private' })
    const wrongNetwork = await server.api(`/v3/groups/public/${groupId}/ids/${privateFile.body.data.id}`, {
      method: 'PUT',
    })
    expect(wrongNetwork.status).toBe(404)
    const other = await server.token({ org: 'globex' })
    expect(
      (await server.api(`/v3/groups/public/${groupId}/ids/${fileId}`, { method: 'PUT', auth: other })).status,
    ).toBe(404)

    const remove = await server.api(`/v3/groups/public/${groupId}/ids/${fileId}`, { method: 'DELETE' })
    expect(await remove.json()).toEqual({ data: null })
    const after = await server.api(`/v3/files/public/${fileId}`)
    expect(((await after.json()) as { data: { group_id: string | null } }).data.group_id).toBeNull()
  })

  it('delete - files of a deleted group stay, in no group', async () => {
    const { body } = await create('private', { name: 'Temporary' })
    const file = await upload(server, { bytes: `orphaned-${Math.random()}` }, { group_id: body.data.id })
    expect(file.body.data.group_id).toBe(body.data.id)
    await server.api(`/v3/groups/private/${body.data.id}`, { method: 'DELETE' })
    const res = await server.api(`/v3/files/private/${file.body.data.id}`)
    expect(((await res.json()) as { data: { group_id: string | null } }).data.group_id).toBeNull()
  })
})
