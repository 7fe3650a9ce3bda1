import { createHash } from 'node:crypto'
import type { BlobStore } from '@pinfold/interface'
import { describe, expect, it } from 'vitest'
import { collect, patternBytes } from './bytes.js'
import { freshHarnessPerTest } from './fresh-harness-per-test.js'

/** Bypasses the adapter to prove what really is (or is not) in the backend. */
export interface BlobProbe {
  exists(key: string): Promise<boolean>
  /** Every object or file the backend holds, temporary ones included (to prove nothing leaks). */
  count?(): Promise<number>
}

export interface BlobStoreHarness {
  store: BlobStore
  probe: BlobProbe
  /**
   * A second store over the same backend, as another process (or the same one after a restart)
   * would open it; omitted where nothing outlives the store (memory), and the store itself is used.
   */
  reopen?(): BlobStore
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
  /** The store implements `staged` (writing a blob in parts over time). */
  staged?: boolean
}

export function describeBlobStore(
  name: string,
  create: () => Promise<BlobStoreHarness>,
  capabilities: BlobCapabilities = {},
): void {
  describe(`BlobStore conformance: ${name}`, () => {
    let h: BlobStoreHarness
    freshHarnessPerTest(create, (next) => {
      h = next
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

    // Every range of a small blob, the first byte alone included: `bytes=0-0` is the edge some
    // S3-compatible servers get wrong (s3rver reads an end of 0 as "no end" and sends it all).
    it('get - every (offset, length) of a small blob reads exactly those bytes', async () => {
      const bytes = patternBytes(6, 24)
      await h.store.put('every-range', chunked(bytes, 2))
      for (let offset = 0; offset <= bytes.length; offset++) {
        for (const length of [undefined, 0, 1, 2, 5, 7]) {
          const got = await collect(await h.store.get('every-range', { range: { offset, length } }))
          const end = length === undefined ? undefined : offset + length
          expect([...got], `offset ${offset}, length ${length}`).toEqual([...bytes.subarray(offset, end)])
        }
      }
    })

    it('get - any range starting at 0 of an empty blob reads nothing', async () => {
      await h.store.put('empty-ranged', chunked(new Uint8Array(0), 1))
      for (const range of [{ offset: 0 }, { offset: 0, length: 0 }, { offset: 0, length: 4096 }]) {
        expect((await collect(await h.store.get('empty-ranged', { range }))).length).toBe(0)
      }
      await expect(h.store.get('empty-ranged', { range: { offset: 1 } })).rejects.toMatchObject({
        code: 'RANGE_NOT_SATISFIABLE',
      })
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
      expect(h.store.staged !== undefined).toBe(capabilities.staged === true)
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

    if (capabilities.staged) {
      const staged = () => {
        if (!h.store.staged) throw new Error('staged declared but missing')
        return h.store.staged
      }
      /** Part sizes that cross the store's minimum (S3: one, then two buffers and a rest). */
      const unit = () => Math.max(staged().minPartBytes, 100_000)

      it('staged - parts appended in order become one blob, visible only once completed', async () => {
        const writes = staged()
        const sizes = [unit() + 7, 2 * unit() + 3, 1000]
        const parts = sizes.map((size, i) => patternBytes(size, 40 + i))
        const handle = await writes.begin('s/whole')
        const tokens: string[] = []
        let offset = 0
        for (const part of parts) {
          const appended = await writes.appendPart('s/whole', handle, offset, chunked(part, 65_536))
          expect(appended.size).toBe(part.length)
          expect(JSON.parse(JSON.stringify(appended.part))).toBe(appended.part)
          tokens.push(appended.part)
          offset += part.length
        }
        expect(await h.store.head('s/whole')).toBeUndefined()
        expect(await h.probe.exists('s/whole')).toBe(false)
        expect(await writes.complete('s/whole', handle, tokens)).toEqual({ size: offset })
        expect(await h.store.head('s/whole')).toEqual({ key: 's/whole', size: offset })
        expect(sha(await collect(await h.store.get('s/whole')))).toBe(sha(concat(parts)))
        // spent: aborting a completed write changes nothing
        await writes.abort('s/whole', handle)
        expect((await h.store.head('s/whole'))?.size).toBe(offset)
      })

      it('staged - a part whose source fails can be appended again at its offset, and only the retry counts', async () => {
        const writes = staged()
        const first = patternBytes(unit(), 50)
        const second = patternBytes(unit() + 5, 51)
        const handle = await writes.begin('s/retry')
        const one = await writes.appendPart('s/retry', handle, 0, chunked(first, 50_000))
        async function* failing() {
          yield patternBytes(unit(), 52)
          yield patternBytes(70_000, 53)
          throw new Error('client went away')
        }
        await expect(writes.appendPart('s/retry', handle, first.length, failing())).rejects.toThrow('client went away')
        const controller = new AbortController()
        async function* aborted() {
          yield patternBytes(10_000, 54)
          controller.abort()
          yield patternBytes(10_000, 55)
        }
        await expect(
          writes.appendPart('s/retry', handle, first.length, aborted(), { signal: controller.signal }),
        ).rejects.toMatchObject({ code: 'ABORTED' })
        const two = await writes.appendPart('s/retry', handle, first.length, chunked(second, 65_536))
        await writes.complete('s/retry', handle, [one.part, two.part])
        expect(sha(await collect(await h.store.get('s/retry')))).toBe(sha(concat([first, second])))
      })

      it('staged - another store over the same backend continues and completes a write begun here', async () => {
        const writes = staged()
        const parts = [patternBytes(unit(), 60), patternBytes(12_345, 61)]
        const handle = await writes.begin('s/moved')
        const one = await writes.appendPart('s/moved', handle, 0, chunked(parts[0]!, 65_536))
        const other = (h.reopen?.() ?? h.store).staged
        if (!other) throw new Error('the reopened store has no staged writes')
        const two = await other.appendPart('s/moved', handle, parts[0]!.length, chunked(parts[1]!, 4096))
        await other.complete('s/moved', handle, [JSON.parse(JSON.stringify(one.part)), two.part])
        expect(sha(await collect(await h.store.get('s/moved')))).toBe(sha(concat(parts)))
      })

      it('staged - no parts complete an empty blob', async () => {
        const handle = await staged().begin('s/empty')
        expect(await staged().complete('s/empty', handle, [])).toEqual({ size: 0 })
        expect(await h.store.head('s/empty')).toEqual({ key: 's/empty', size: 0 })
      })

      it('staged - abort drops every part, leaves nothing behind and is idempotent', async () => {
        const before = await h.probe.count?.()
        const writes = staged()
        const handle = await writes.begin('s/dropped')
        await writes.appendPart('s/dropped', handle, 0, chunked(patternBytes(unit(), 70), 65_536))
        await writes.abort('s/dropped', handle)
        await writes.abort('s/dropped', handle)
        expect(await h.store.head('s/dropped')).toBeUndefined()
        expect(await h.probe.exists('s/dropped')).toBe(false)
        if (before !== undefined) expect(await h.probe.count?.()).toBe(before)
      })
    }

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

function concat(parts: readonly Uint8Array[]): Uint8Array {
  return Buffer.concat(parts)
}

function sha(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex')
}
