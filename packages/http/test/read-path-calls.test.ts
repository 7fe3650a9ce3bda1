import { createMemoryRecordStore } from '@pinfold/adapter-memory'
import type { RecordStore } from '@pinfold/core'
import { startTestApi, type TestApi } from '@pinfold/testing/test-api'
import { afterAll, beforeAll, expect, it } from 'vitest'

/** `records` with every call of every part's methods counted under `part.method`. */
function countedRecords(records: RecordStore, calls: Map<string, number>): RecordStore {
  const countedPart = (part: string, target: object) =>
    new Proxy(target, {
      get(object, key) {
        const value: unknown = Reflect.get(object, key)
        if (typeof value !== 'function') return value
        return (...args: unknown[]) => {
          const name = `${part}.${String(key)}`
          calls.set(name, (calls.get(name) ?? 0) + 1)
          return value.apply(object, args)
        }
      },
    })
  return new Proxy(records, {
    get(object, key) {
      const value: unknown = Reflect.get(object, key)
      return typeof value === 'object' && value !== null ? countedPart(String(key), value) : value
    },
  })
}

const calls = new Map<string, number>()
let server: TestApi

beforeAll(async () => {
  // a clock that stands still: no cache's time runs out between the requests, however slow the machine
  const now = new Date()
  server = await startTestApi({
    records: countedRecords(createMemoryRecordStore(), calls),
    embedder: null,
    clock: { now: () => now },
  })
})
afterAll(() => server.close())

// What a small authenticated GET costs on any record store: the token, the tenant's admission and
// its request-rate limit are answered from this process's caches, so the one call left is the
// file itself (on PostgreSQL one statement, outside any transaction), and nothing is written.
it('a repeated GET of a file by id reads the record store once per request and writes nothing', async () => {
  const form = new FormData()
  form.set('file', new Blob(['small file\n']), 'small.txt')
  form.set('network', 'public')
  const uploaded = await server.api('/v3/files', { method: 'POST', body: form })
  expect(uploaded.status).toBe(200)
  const { id } = ((await uploaded.json()) as { data: { id: string } }).data
  // the tenant's first request has been made (the upload): admission and limits are cached now
  expect((await server.api(`/v3/files/public/${id}`)).status).toBe(200)
  calls.clear()
  for (let i = 0; i < 10; i++) {
    const res = await server.api(`/v3/files/public/${id}`)
    expect(res.status).toBe(200)
    expect(((await res.json()) as { data: { id: string } }).data.id).toBe(id)
  }
  expect(Object.fromEntries(calls)).toEqual({ 'files.getFile': 10 })
})
