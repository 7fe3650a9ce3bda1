import { collect } from '@pinfold/conformance'
import { afterEach, describe, expect, it } from 'vitest'
import { createS3BlobStore } from '../src/index.js'
import { type FakeAnswer, fakeClient, startFakeS3 } from './fake-s3.js'

/**
 * Servers that answer a ranged GetObject with more than the range (s3rver's `bytes=0-0`, a proxy
 * dropping `Range`): the store still hands out exactly the bytes asked for, or a coded error.
 */
const object = new TextEncoder().encode('0123456789')

let closeServer: (() => Promise<void>) | undefined
afterEach(async () => {
  await closeServer?.()
  closeServer = undefined
})

async function storeAnswering(answer: (range: string | undefined) => FakeAnswer) {
  const fake = await startFakeS3((req) => answer(req.headers.range))
  closeServer = fake.close
  return createS3BlobStore({ client: fakeClient(fake.port), bucket: 'b' })
}

const whole = (): FakeAnswer => ({
  status: 200,
  body: object,
  headers: { 'content-type': 'application/octet-stream', 'content-length': String(object.length) },
})

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes)

describe('S3BlobStore - answers wider than the range asked for', () => {
  it('a server ignoring Range (200, whole object): each range reads exactly its bytes', async () => {
    const requested: (string | undefined)[] = []
    const store = await storeAnswering((range) => {
      requested.push(range)
      return whole()
    })
    expect(text(await collect(await store.get('k', { range: { offset: 0, length: 1 } })))).toBe('0')
    expect(text(await collect(await store.get('k', { range: { offset: 3, length: 4 } })))).toBe('3456')
    expect(text(await collect(await store.get('k', { range: { offset: 8 } })))).toBe('89')
    expect(text(await collect(await store.get('k', { range: { offset: 10 } })))).toBe('')
    expect(requested).toEqual(['bytes=0-0', 'bytes=3-6', 'bytes=8-', 'bytes=10-'])
  })

  it('a server ignoring Range: a range starting past the end is RANGE_NOT_SATISFIABLE', async () => {
    const store = await storeAnswering(whole)
    await expect(store.get('k', { range: { offset: 11 } })).rejects.toMatchObject({ code: 'RANGE_NOT_SATISFIABLE' })
  })

  it('a 206 from an earlier offset to the end (s3rver on bytes=0-0 reads to the end): cut to the range', async () => {
    const store = await storeAnswering(() => ({
      status: 206,
      body: object.subarray(2),
      headers: { 'content-type': 'application/octet-stream', 'content-range': 'bytes 2-9/10' },
    }))
    expect(text(await collect(await store.get('k', { range: { offset: 4, length: 3 } })))).toBe('456')
  })

  it('a 206 starting after the offset asked for: INTERNAL, never bytes from the wrong place', async () => {
    const store = await storeAnswering(() => ({
      status: 206,
      body: object.subarray(5),
      headers: { 'content-type': 'application/octet-stream', 'content-range': 'bytes 5-9/10' },
    }))
    await expect(store.get('k', { range: { offset: 4, length: 3 } })).rejects.toMatchObject({ code: 'INTERNAL' })
  })

  it('a Content-Range that is not bytes START-END/SIZE: INTERNAL', async () => {
    const store = await storeAnswering(() => ({
      status: 206,
      body: object,
      headers: { 'content-type': 'application/octet-stream', 'content-range': 'items 0-9/10' },
    }))
    await expect(store.get('k', { range: { offset: 0, length: 3 } })).rejects.toMatchObject({ code: 'INTERNAL' })
  })
})
