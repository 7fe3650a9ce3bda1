import type { PinataSDK } from 'pinata'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pinataFor } from '../support/sdk.js'
import { startTestServer, type TestServer } from '../support/server.js'

describe('official SDK - groups', () => {
  let server: TestServer
  let pinata: PinataSDK
  beforeAll(async () => {
    server = await startTestServer()
    pinata = pinataFor(server.url, await server.token())
  })
  afterAll(() => server.close())

  it('groups.public - create, get, update, list with filters and .all(), delete', async () => {
    const created = await pinata.groups.public.create({ name: 'sdk-photos', isPublic: true })
    expect(created).toMatchObject({ id: expect.any(String), name: 'sdk-photos', is_public: true })
    expect(await pinata.groups.public.get({ groupId: created.id })).toMatchObject({
      id: created.id,
      name: 'sdk-photos',
      is_public: true,
      created_at: expect.any(String),
    })

    const updated = await pinata.groups.public.update({ groupId: created.id, name: 'sdk-pictures', isPublic: false })
    expect(updated).toMatchObject({ id: created.id, name: 'sdk-pictures', is_public: false })
    expect(await pinata.groups.public.get({ groupId: created.id })).toMatchObject({
      name: 'sdk-pictures',
      is_public: false,
    })

    const others = []
    for (let i = 0; i < 5; i++)
      others.push(await pinata.groups.public.create({ name: `sdk-page-${i}`, isPublic: i < 2 }))
    const byName = await pinata.groups.public.list().name('sdk-page-')
    expect(byName.groups.map((g) => g.id).sort()).toEqual(others.map((g) => g.id).sort())
    const onlyPublic = await pinata.groups.public.list().name('sdk-page-').isPublic(true)
    expect(onlyPublic.groups.map((g) => g.name).sort()).toEqual(['sdk-page-0', 'sdk-page-1'])

    const firstPage = await pinata.groups.public.list().limit(2)
    expect(firstPage.groups).toHaveLength(2)
    expect(firstPage.next_page_token).toBeTruthy()
    const secondPage = await pinata.groups.public.list().limit(2).pageToken(firstPage.next_page_token)
    expect(secondPage.groups.map((g) => g.id)).not.toContain(firstPage.groups[0]!.id)

    const all = await pinata.groups.public.list().limit(2).all()
    expect(all.map((g) => g.id).sort()).toEqual([created.id, ...others.map((g) => g.id)].sort())

    expect(await pinata.groups.public.delete({ groupId: created.id })).toBe('OK')
    await expect(pinata.groups.public.get({ groupId: created.id })).rejects.toMatchObject({ statusCode: 404 })
  })

  it('groups.private - addFiles and removeFiles move files in and out, visible through files.list().group()', async () => {
    const group = await pinata.groups.private.create({ name: 'sdk-private-group' })
    expect(group).toMatchObject({ name: 'sdk-private-group', is_public: false })
    const a = await pinata.upload.private.file(new File(['group file a'], 'a.txt', { type: 'text/plain' }))
    const b = await pinata.upload.private.file(new File(['group file b'], 'b.txt', { type: 'text/plain' }))

    const added = await pinata.groups.private.addFiles({ groupId: group.id, files: [a.id, b.id] })
    expect(added).toEqual([
      { id: a.id, status: 'OK' },
      { id: b.id, status: 'OK' },
    ])
    const inGroup = await pinata.files.private.list().group(group.id)
    expect(inGroup.files.map((f) => f.id).sort()).toEqual([a.id, b.id].sort())

    const removed = await pinata.groups.private.removeFiles({ groupId: group.id, files: [a.id] })
    expect(removed).toEqual([{ id: a.id, status: 'OK' }])
    const after = await pinata.files.private.list().group(group.id)
    expect(after.files.map((f) => f.id)).toEqual([b.id])
    expect((await pinata.files.private.get(a.id)).group_id).toBeNull()

    const privateGroups = await pinata.groups.private.list().all()
    expect(privateGroups.map((g) => g.id)).toContain(group.id)
    const publicGroups = await pinata.groups.public.list().all()
    expect(publicGroups.map((g) => g.id)).not.toContain(group.id)
  })
})
