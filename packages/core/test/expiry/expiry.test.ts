import { describe, expect, it } from 'vitest'
import { alice, createTestService, mallory, START, uploadFile, uploadFolder } from '../support/test-service.js'

const at = (seconds: number) => new Date(START.getTime() + seconds * 1000)

describe('expiry', () => {
  it('sweep - deletes files whose expiry is at or before now and keeps the rest', async () => {
    const test = createTestService()
    const due = await uploadFile(test.service, alice, 'due', { expiresAt: at(10) })
    const later = await uploadFile(test.service, alice, 'later', { expiresAt: at(11) })
    const forever = await uploadFile(test.service, alice, 'forever')
    test.clock.advance(10_000)
    expect(await test.service.expiry.sweep()).toBe(1)
    await expect(test.service.files.get(alice, 'private', due.file.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    for (const kept of [later, forever]) await test.service.files.get(alice, 'private', kept.file.id)
    expect(test.blobs.count).toBe(2)
    expect(await test.service.expiry.sweep(at(11))).toBe(1)
    expect(await test.service.expiry.sweep(at(1_000_000))).toBe(0)
  })

  it('sweep - bytes another record still uses stay; the last record takes them along', async () => {
    const test = createTestService()
    await uploadFile(test.service, alice, 'shared', { expiresAt: at(10) })
    const kept = await uploadFile(test.service, mallory, 'shared', { expiresAt: at(20) })
    expect(await test.service.expiry.sweep(at(10))).toBe(1)
    expect(test.blobs.count).toBe(1)
    await test.service.files.get(mallory, 'private', kept.file.id)
    expect(await test.service.expiry.sweep(at(20))).toBe(1)
    expect(test.blobs.count).toBe(0)
  })

  it("sweep - an expired folder's CAR goes with it", async () => {
    const test = createTestService()
    await uploadFolder(test.service, alice, { 'd/a.txt': 'a', 'd/b.txt': 'b' }, { expiresAt: at(1) })
    expect(test.blobs.count).toBe(1)
    expect(await test.service.expiry.sweep(at(1))).toBe(1)
    expect(test.blobs.count).toBe(0)
  })

  it('update - a new expiry must lie ahead of the clock; null keeps the file forever', async () => {
    const test = createTestService()
    const { file } = await uploadFile(test.service, alice, 'x', { expiresAt: at(10) })
    test.clock.advance(5_000)
    await expect(test.service.files.update(alice, 'private', file.id, { expiresAt: at(5) })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    })
    await test.service.files.update(alice, 'private', file.id, { expiresAt: null })
    expect(await test.service.expiry.sweep(at(1_000))).toBe(0)
  })
})
