import { createHash } from 'node:crypto'
import type { BlobStore } from '@pinfold/interface'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { collect, patternBytes } from './bytes.js'

/** Bypasses the adapter to prove what really is (or is not) in the backend. */
export interface BlobProbe {
  exists(key: string): Promise<boolean>
  /** Every object or file the backend holds, temporary ones included (to prove nothing leaks). */
  count?(): Promise<number>
}

export interface BlobStoreHarness {
  store: BlobStore
  probe: BlobProbe
  close?(): Promise<void>
}

/**
 * The BlobStore contract (see `BlobStore` in @pinfold/interface). Every adapter runs it; optional
 * capabilities (`presignGet`, `list`) are tested when the store declares them.
 */
export interface BlobCapabilities {
  /** The store implements `list`. */
  list?: boolean
  /** The store implements `presignGet`, and its URLs are reachable from this process. */
  presignGet?: boolean
}

export function describeBlobStore(
  name: string,
  create: () => Promise<BlobStoreHarness>,
  capabilities: BlobCapabilities = {},
): void {
  describe(`BlobStore conformance: ${name}`, () => {
    let h: BlobStoreHarness
    beforeEach(async () => {
      h = await create()
    })
    afterEach(async () => {
      await h.close?.()
    })

    it('put - stores the exact bytes and reports their size', async () => {
      const bytes = patternBytes(300_000, 1)
      const { size } = await h.store.put('a/one', chunked(bytes, 65_536))
      expect(size).toBe(bytes.length)
      expect(await h.probe.exists('a/one')).toBe(true)
      expect(sha(await collect(await h.store.get('a/one')))).toBe(sha(bytes))
    })

    it('put - stores an empty blob', async () => {
      const { size } = await h.store.put('empty', chunked(new Uint8Array(0), 1))
      expect(size).toBe(0)
      expect(await h.store.head('empty')).toEqual({ key: 'empty', size: 0 })
      expect((await collect(await h.store.get('empty'))).length).toBe(0)
    })

    it('put - streams a multi-megabyte source chunk by chunk', async () => {
      const bytes = patternBytes(6 * 1024 * 1024 + 7, 2)
      await h.store.put('big', chunked(bytes, 100_003))
      expect((await h.store.head('big'))?.size).toBe(bytes.length)
      expect(sha(await collect(await h.store.get('big')))).toBe(sha(bytes))
    })

    it('put - a source that fails midway leaves nothing behind', async () => {
      const before = await h.probe.count?.()
      async function* failing() {
        yield patternBytes(70_000, 3)
        yield patternBytes(70_000, 4)
        throw new Error('client went away')
      }
      await expect(h.store.put('broken', failing())).rejects.toThrow()
      expect(await h.store.head('broken')).toBeUndefined()
      expect(await h.probe.exists('broken')).toBe(false)
      if (before !== undefined) expect(await h.probe.count?.()).toBe(before)
    })

    it('put - an aborted signal rejects with ABORTED and leaves nothing behind', async () => {
      const controller = new AbortController()
      async function* slow() {
        yield patternBytes(10_000, 5)
        controller.abort()
        yield patternBytes(10_000, 6)
        await new Promise((r) => setTimeout(r, 20))
        yield patternBytes(10_000, 7)
      }
      await expect(h.store.put('aborted', slow(), { signal: controller.signal })).rejects.toMatchObject({
        code: 'ABORTED',
      })
      expect(await h.probe.exists('aborted')).toBe(false)
    })

    it('put - overwriting a key replaces the whole object', async () => {
      await h.store.put('k', chunked(patternBytes(50_000, 8), 1000))
      const second = patternBytes(1234, 9)
      await h.store.put('k', chunked(second, 100))
      expect(sha(await collect(await h.store.get('k')))).toBe(sha(second))
    })

    it('put - concurrent writes to different keys all land intact', async () => {
      const blobs = Array.from({ length: 8 }, (_, i) => patternBytes(40_000 + i, 10 + i))
      await Promise.all(blobs.map((b, i) => h.store.put(`c/${i}`, chunked(b, 4096))))
      for (const [i, b] of blobs.entries()) {
        expect(sha(await collect(await h.store.get(`c/${i}`)))).toBe(sha(b))
      }
    })

    it('get - a missing key rejects with NOT_FOUND', async () => {
      await expect(h.store.get('nope')).rejects.toMatchObject({
        code: 'NOT_FOUND',
      })
    })

    it('get - returns exactly the requested range', async () => {
      const bytes = patternBytes(500_000, 20)
      await h.store.put('r', chunked(bytes, 65_536))
      const slice = await collect(await h.store.get('r', { range: { offset: 123_457, length: 1000 } }))
      expect(Buffer.from(slice).equals(Buffer.from(bytes.subarray(123_457, 124_457)))).toBe(true)
      const tail = await collect(await h.store.get('r', { range: { offset: 499_990 } }))
      expect(Buffer.from(tail).equals(Buffer.from(bytes.subarray(499_990)))).toBe(true)
      const clamped = await collect(await h.store.get('r', { range: { offset: 499_000, length: 5000 } }))
      expect(clamped.length).toBe(1000)
      const atEnd = await collect(await h.store.get('r', { range: { offset: 500_000, length: 10 } }))
      expect(atEnd.length).toBe(0)
    })

    it('get - a range starting past the end rejects with RANGE_NOT_SATISFIABLE', async () => {
      await h.store.put('short', chunked(patternBytes(10, 21), 10))
      await expect(h.store.get('short', { range: { offset: 11 } })).rejects.toMatchObject({
        code: 'RANGE_NOT_SATISFIABLE',
      })
    })

    it('head - reports the size, or undefined when absent', async () => {
      await h.store.put('h', chunked(patternBytes(777, 22), 100))
      expect(await h.store.head('h')).toEqual({ key: 'h', size: 777 })
      expect(await h.store.head('absent')).toBeUndefined()
    })

    it('delete - removes the blob and is idempotent', async () => {
      await h.store.put('d', chunked(patternBytes(10, 23), 10))
      await h.store.delete('d')
      expect(await h.store.head('d')).toBeUndefined()
      expect(await h.probe.exists('d')).toBe(false)
      await h.store.delete('d')
      await h.store.delete('never-existed')
    })

    it('capabilities - the store implements exactly what it declares', () => {
      expect(typeof h.store.list === 'function').toBe(capabilities.list === true)
      if (capabilities.presignGet) expect(typeof h.store.presignGet).toBe('function')
    })

    if (capabilities.list)
      it('list - yields every key under a prefix', async () => {
        if (!h.store.list) throw new Error('list declared but missing')
        await h.store.put('p/x/1', chunked(patternBytes(3, 24), 3))
        await h.store.put('p/x/2', chunked(patternBytes(4, 25), 4))
        await h.store.put('q/3', chunked(patternBytes(5, 26), 5))
        const listed: { key: string; size: number }[] = []
        for await (const info of h.store.list({ prefix: 'p/' })) listed.push(info)
        expect(listed.sort((a, b) => a.key.localeCompare(b.key))).toEqual([
          { key: 'p/x/1', size: 3 },
          { key: 'p/x/2', size: 4 },
        ])
      })

    if (capabilities.presignGet)
      it('presignGet - a plain HTTP GET of the URL returns the bytes', async () => {
        if (!h.store.presignGet) throw new Error('presignGet declared but missing')
        const bytes = patternBytes(20_000, 27)
        await h.store.put('signed', chunked(bytes, 4096))
        const url = await h.store.presignGet('signed', {
          expiresInSeconds: 60,
          contentType: 'image/png',
          contentDisposition: 'inline; filename="x.png"',
        })
        const res = await fetch(url)
        expect(res.status).toBe(200)
        expect(res.headers.get('content-type')).toBe('image/png')
        expect(sha(new Uint8Array(await res.arrayBuffer()))).toBe(sha(bytes))
      })
  })
}

async function* chunked(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  if (bytes.length === 0) return
  for (let i = 0; i < bytes.length; i += size) yield bytes.slice(i, i + size)
}

function sha(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex')
}
