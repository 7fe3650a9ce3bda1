import { createMemoryBlobStore, createMemoryRecordStore } from '@pinfold/adapter-memory'
import { createFileService, createTokenVerifier, PinfoldError } from '@pinfold/core'
import { TEST_SECRET } from '@pinfold/testing/test-api'
import { describe, expect, it } from 'vitest'
import { createFetchHandler } from '../src/index.js'

function handlerWith(fail: { records?: boolean; blobs?: boolean }) {
  const records = createMemoryRecordStore()
  const blobs = createMemoryBlobStore()
  const down = async () => {
    throw new PinfoldError('UNAVAILABLE', 'connection refused to db.internal:5432 password=hunter2')
  }
  const service = createFileService({
    records: fail.records ? { ...records, files: { ...records.files, getContent: down } } : records,
    blobs: fail.blobs ? { ...blobs, head: down } : blobs,
  })
  return createFetchHandler(service, { auth: createTokenVerifier({ secret: TEST_SECRET }) })
}

describe('health', () => {
  it('readyz - 200 when both stores answer', async () => {
    const res = await handlerWith({})(new Request('http://api.test/readyz'))
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ status: 'ok', checks: { records: 'ok', blobs: 'ok' } })
  })

  it('readyz - 503 naming the store that failed, without its error', async () => {
    for (const [fail, checks] of [
      [{ records: true }, { records: 'failed', blobs: 'ok' }],
      [{ blobs: true }, { records: 'ok', blobs: 'failed' }],
    ] as const) {
      const res = await handlerWith(fail)(new Request('http://api.test/readyz'))
      expect(res.status).toBe(503)
      const text = await res.text()
      expect(JSON.parse(text)).toEqual({ status: 'unavailable', checks })
      expect(text).not.toContain('hunter2')
    }
  })

  it('healthz - 200 even when a store is down', async () => {
    const res = await handlerWith({ records: true, blobs: true })(new Request('http://api.test/healthz'))
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ status: 'ok' })
  })
})
