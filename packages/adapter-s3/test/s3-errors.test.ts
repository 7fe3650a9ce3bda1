import { once } from 'node:events'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { S3Client } from '@aws-sdk/client-s3'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createS3BlobStore } from '../src/index.js'
import { errorXml, fakeClient, startFakeS3 } from './fake-s3.js'

/** What the fake S3 answers next: a status and, when set, an S3 error code in an XML body. */
let answer: { status: number; code?: string }
let fake: Awaited<ReturnType<typeof startFakeS3>>
let client: S3Client

beforeAll(async () => {
  fake = await startFakeS3(() => ({ status: answer.status, body: answer.code && errorXml(answer.code) }))
  client = fakeClient(fake.port)
})

afterAll(async () => {
  client.destroy()
  await fake.close()
})

beforeEach(() => {
  answer = { status: 500 }
})

describe('S3 error mapping', () => {
  const store = () => createS3BlobStore({ client, bucket: 'errors' })

  it('head - a 403 is STORAGE_DENIED, never "absent"', async () => {
    answer = { status: 403 }
    await expect(store().head('k')).rejects.toMatchObject({ code: 'STORAGE_DENIED', cause: expect.anything() })
  })

  it('get - AccessDenied is STORAGE_DENIED', async () => {
    answer = { status: 403, code: 'AccessDenied' }
    await expect(store().get('k')).rejects.toMatchObject({ code: 'STORAGE_DENIED', cause: { name: 'AccessDenied' } })
  })

  it('get - InvalidAccessKeyId and SignatureDoesNotMatch are STORAGE_DENIED', async () => {
    for (const code of ['InvalidAccessKeyId', 'SignatureDoesNotMatch']) {
      answer = { status: 403, code }
      await expect(store().get('k')).rejects.toMatchObject({ code: 'STORAGE_DENIED' })
    }
  })

  it('get - a missing bucket is STORAGE_DENIED, not a missing blob', async () => {
    answer = { status: 404, code: 'NoSuchBucket' }
    await expect(store().get('k')).rejects.toMatchObject({ code: 'STORAGE_DENIED' })
  })

  it('get - NoSuchKey is NOT_FOUND', async () => {
    answer = { status: 404, code: 'NoSuchKey' }
    await expect(store().get('k')).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })

  it('put - 503 SlowDown is UNAVAILABLE and keeps the cause', async () => {
    answer = { status: 503, code: 'SlowDown' }
    await expect(store().put('k', bytes())).rejects.toMatchObject({
      code: 'UNAVAILABLE',
      cause: { name: 'SlowDown' },
    })
  })

  it('delete - a bare 500 is UNAVAILABLE', async () => {
    answer = { status: 500 }
    await expect(store().delete('k')).rejects.toMatchObject({ code: 'UNAVAILABLE' })
  })

  it('list - 500 InternalError is UNAVAILABLE', async () => {
    answer = { status: 500, code: 'InternalError' }
    const listing = store().list()[Symbol.asyncIterator]()
    await expect(listing.next()).rejects.toMatchObject({ code: 'UNAVAILABLE' })
  })

  it('head - a refused connection is UNAVAILABLE', async () => {
    const closed = createServer()
    closed.listen(0, '127.0.0.1')
    await once(closed, 'listening')
    const port = (closed.address() as AddressInfo).port
    closed.close()
    await once(closed, 'close')
    const refused = fakeClient(port)
    const error = await createS3BlobStore({ client: refused, bucket: 'errors' })
      .head('k')
      .catch((err: unknown) => err)
    refused.destroy()
    expect(error).toMatchObject({ code: 'UNAVAILABLE', cause: { code: 'ECONNREFUSED' } })
  })
})

async function* bytes(): AsyncGenerator<Uint8Array> {
  yield new Uint8Array(10)
}
