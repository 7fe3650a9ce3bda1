import { createMemoryBlobStore, createMemoryRecordStore } from '@pinfold/adapter-memory'
import { createFileService, type FileService } from '@pinfold/core'
import { beforeEach, describe, expect, it } from 'vitest'
import { createAvatars } from '../src/avatars.js'

const HELLO_CID = 'bafkreifzjut3te2nhyekklss27nh3k72ysco7y32koao5eei66wof36n5e'
const bytes = (text: string) => new TextEncoder().encode(text)

describe('avatars (your code) on an in-memory Pinfold', () => {
  // A fresh service per test: no server, no disk, nothing to clean up afterwards.
  let service: FileService
  beforeEach(() => {
    service = createFileService({ records: createMemoryRecordStore(), blobs: createMemoryBlobStore() })
  })

  it('set - stores the image and answers the CID ipfs add would give it', async () => {
    const avatars = createAvatars(service, 'acme')
    expect(await avatars.set('alice', bytes('hello world'), 'image/png')).toBe(HELLO_CID)
    expect(await avatars.get('alice')).toBe(HELLO_CID)
    // The test can look behind the code's back, straight into the service.
    const { files } = await service.files.list({ tenantId: 'acme', userId: 'alice' }, 'public')
    expect(files).toEqual([expect.objectContaining({ cid: HELLO_CID, keyvalues: { avatarOf: 'alice' } })])
  })

  it('set - replaces the previous avatar', async () => {
    const avatars = createAvatars(service, 'acme')
    await avatars.set('alice', bytes('first'), 'image/png')
    const second = await avatars.set('alice', bytes('second'), 'image/png')
    expect(await avatars.get('alice')).toBe(second)
    const { files } = await service.files.list({ tenantId: 'acme', userId: 'alice' }, 'public')
    expect(files.map((f) => f.cid)).toEqual([second])
  })

  it('get - answers null for users without an avatar and keeps tenants apart', async () => {
    await createAvatars(service, 'acme').set('alice', bytes('hello world'), 'image/png')
    expect(await createAvatars(service, 'acme').get('bob')).toBeNull()
    expect(await createAvatars(service, 'globex').get('alice')).toBeNull()
  })
})
