import { createMemoryBlobStore } from '@pinfold/adapter-memory'
import { describe, expect, it } from 'vitest'
import type { BlobStore, CallOptions, PresignOptions } from '../../src/index.js'
import { alice, createTestService, type TestService, uploadFile, uploadFolder } from '../support/test-service.js'

/** A blob store that presigns as S3 does: the memory store, plus a `presignGet` that records its calls. */
function presigningBlobs() {
  const inner = createMemoryBlobStore()
  const presigned: { key: string; options: PresignOptions & CallOptions }[] = []
  const blobs: BlobStore = {
    put: (key, source, options) => inner.put(key, source, options),
    get: (key, options) => inner.get(key, options),
    head: (key, options) => inner.head(key, options),
    delete: (key, options) => inner.delete(key, options),
    list: (options) => inner.list(options),
    async presignGet(key, options) {
      presigned.push({ key, options })
      return `https://bucket.example/${key}?X-Amz-Expires=${options.expiresInSeconds}`
    },
  }
  return { blobs, inner, presigned }
}

/** Signs a link to `cid` for `expires` seconds and opens it, as `GET /files/{cid}` does. */
async function openedLink(test: TestService, cid: string, expires: number) {
  const url = new URL(
    await test.service.downloadLinks.create(alice, { url: `/files/${cid}`, expires }, 'https://files.example.com'),
  )
  return test.service.downloadLinks.open(cid, url.searchParams)
}

describe('presigned downloads', () => {
  it("presign - a file's link gives a URL of its own blob, with its type and the disposition asked for", async () => {
    const { blobs, inner, presigned } = presigningBlobs()
    const test = createTestService({ blobs })
    const { file } = await uploadFile(test.service, alice, 'hello presigned', {}, { path: 'hello.txt' })
    const link = await openedLink(test, file.cid, 120)
    const { signal } = new AbortController()
    const disposition = 'inline; filename="hello.txt"'
    const url = await test.service.downloadLinks.presign(link, { contentDisposition: disposition, signal })
    const keys: string[] = []
    for await (const { key } of inner.list()) keys.push(key)
    expect(keys).toHaveLength(1) // the file's bytes, and no sidecar: a one-block file has no inner nodes
    expect(url).toBe(`https://bucket.example/${keys[0]}?X-Amz-Expires=120`)
    expect(presigned).toEqual([
      {
        key: keys[0],
        options: { expiresInSeconds: 120, contentType: file.mimeType, contentDisposition: disposition, signal },
      },
    ])
  })

  it('presign - valid while the link is, and never longer than an hour', async () => {
    const { blobs, presigned } = presigningBlobs()
    const test = createTestService({ blobs })
    const { file } = await uploadFile(test.service, alice, 'bytes')
    const short = await openedLink(test, file.cid, 120)
    const long = await openedLink(test, file.cid, 3 * 24 * 3600)
    test.clock.advance(100_500)
    await test.service.downloadLinks.presign(short)
    await test.service.downloadLinks.presign(long)
    expect(presigned.map((call) => call.options.expiresInSeconds)).toEqual([19, 3600])
  })

  it('presign - a folder (its blob is a CAR, not a file) and a store that cannot presign answer undefined', async () => {
    const { blobs, presigned } = presigningBlobs()
    const presigning = createTestService({ blobs })
    const { file: folder } = await uploadFolder(presigning.service, alice, { 'site/index.html': '<h1>hi</h1>' })
    expect(await presigning.service.downloadLinks.presign(await openedLink(presigning, folder.cid, 60))).toBeUndefined()
    expect(presigned).toEqual([])

    const plain = createTestService()
    const { file } = await uploadFile(plain.service, alice, 'bytes')
    expect(await plain.service.downloadLinks.presign(await openedLink(plain, file.cid, 60))).toBeUndefined()
  })

  it('presign - a file deleted after its link was opened is NOT_FOUND', async () => {
    const { blobs, presigned } = presigningBlobs()
    const test = createTestService({ blobs })
    const { file } = await uploadFile(test.service, alice, 'soon gone')
    const link = await openedLink(test, file.cid, 60)
    await test.service.files.delete(alice, 'private', file.id)
    await expect(test.service.downloadLinks.presign(link)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    expect(presigned).toEqual([])
  })
})
