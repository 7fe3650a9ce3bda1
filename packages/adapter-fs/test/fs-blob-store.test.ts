import { mkdir, mkdtemp, open, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { collect, patternBytes } from '@pinfold/conformance'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { FLUSH_EVERY_BYTES } from '../src/durable-files.js'
import { READ_CHUNK_BYTES } from '../src/fs-blob-store.js'
import { createFsBlobStore, type FsBlobStore } from '../src/index.js'
import { countFiles } from './count-files.js'

let directory: string
let store: FsBlobStore

beforeEach(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'pinfold-fs-'))
  store = createFsBlobStore({ directory })
})

afterEach(async () => {
  await rm(directory, { recursive: true, force: true })
})

describe('FsBlobStore', () => {
  it('put - leaves no temp file behind, whether it succeeds or fails', async () => {
    await store.put('ok', once(patternBytes(1000, 1)))
    await expect(store.put('broken', failingAfter(patternBytes(1000, 2)))).rejects.toThrow('source failed')
    expect(await readdir(path.join(directory, '.tmp'))).toEqual([])
    expect(await countFiles(directory)).toBe(1)
  })

  it('put - blobs are readable by the owner only: files 0600, directories 0700', async () => {
    const nested = createFsBlobStore({ directory: path.join(directory, 'fresh') })
    await nested.put('blobs/private', once(patternBytes(10, 1)))
    const modes = new Map<string, string>()
    for (const entry of await readdir(path.join(directory, 'fresh'), { recursive: true, withFileTypes: true })) {
      const file = path.join(entry.parentPath, entry.name)
      modes.set(path.relative(directory, file), ((await stat(file)).mode & 0o777).toString(8))
    }
    modes.set('fresh', ((await stat(path.join(directory, 'fresh'))).mode & 0o777).toString(8))
    expect(modes.size).toBeGreaterThan(3)
    for (const [file, mode] of modes) {
      expect({ file, mode }).toEqual({
        file,
        mode: file === nested.pathOf('blobs/private').slice(directory.length + 1) ? '600' : '700',
      })
    }
  })

  it('put - passes the source error through unchanged', async () => {
    const failure = new Error('source failed')
    await expect(store.put('broken', failingAfter(patternBytes(10, 3), failure))).rejects.toBe(failure)
  })

  it('put - keys with slashes are single files, so a key and its "children" coexist', async () => {
    const keys = ['a', 'a/b', 'a/b/c', 'a/', '/a']
    for (const [i, key] of keys.entries()) await store.put(key, once(patternBytes(10 + i, i)))
    for (const [i, key] of keys.entries()) {
      expect(await collect(await store.get(key))).toEqual(patternBytes(10 + i, i))
      const relative = path.relative(path.join(directory, 'blobs'), store.pathOf(key))
      expect(relative.split(path.sep)).toHaveLength(2)
      expect((await stat(store.pathOf(key))).isFile()).toBe(true)
    }
    expect((await listAll(store, 'a')).sort()).toEqual(['a', 'a/', 'a/b', 'a/b/c'])
  })

  it('put - keys that differ only in case stay apart', async () => {
    await store.put('Key', once(patternBytes(5, 1)))
    await store.put('key', once(patternBytes(6, 2)))
    expect(await store.head('Key')).toEqual({ key: 'Key', size: 5 })
    expect(await store.head('key')).toEqual({ key: 'key', size: 6 })
  })

  it('put - long keys round-trip, including one that extends another past a segment boundary', async () => {
    const short = 'x'.repeat(195)
    const keys = [short, `${short}.blob/${'y'.repeat(20)}`, `${'Ab/'.repeat(170)}zz`, '.']
    for (const [i, key] of keys.entries()) await store.put(key, once(patternBytes(100 + i, i)))
    for (const [i, key] of keys.entries()) expect(await store.head(key)).toEqual({ key, size: 100 + i })
    expect((await listAll(store, '')).sort()).toEqual([...keys].sort())
  })

  it('get - a reader keeps the bytes it opened while the key is overwritten', async () => {
    const first = patternBytes(200_000, 1)
    await store.put('k', once(first))
    const reading = await store.get('k')
    await store.put('k', once(patternBytes(10, 2)))
    expect(Buffer.from(await collect(reading)).equals(first)).toBe(true)
  })

  it('put - a large blob is flushed to disk while it is written, and stored intact', async () => {
    const probe = await open(path.join(directory, 'probe'), 'w')
    const datasync = vi.spyOn(Object.getPrototypeOf(probe), 'datasync')
    await probe.close()
    const piece = patternBytes(1024 * 1024, 3)
    const pieces = (2.5 * FLUSH_EVERY_BYTES) / piece.length
    async function* big() {
      for (let i = 0; i < pieces; i++) yield piece
    }
    try {
      expect(await store.put('large', big())).toEqual({ size: pieces * piece.length })
      expect(datasync).toHaveBeenCalled()
    } finally {
      datasync.mockRestore()
    }
    let offset = 0
    for await (const chunk of await store.get('large')) {
      expect(
        Buffer.from(chunk).equals(piece.subarray(offset % piece.length, (offset % piece.length) + chunk.length)),
      ).toBe(true)
      offset += chunk.length
    }
    expect(offset).toBe(pieces * piece.length)
  })

  it('get - streams in chunks of READ_CHUNK_BYTES (128 KiB), whole or ranged', async () => {
    const bytes = patternBytes(1024 * 1024, 7)
    await store.put('big', once(bytes))
    const whole: Uint8Array[] = []
    for await (const chunk of await store.get('big')) whole.push(chunk)
    expect(whole.map((chunk) => chunk.length)).toEqual(Array(8).fill(READ_CHUNK_BYTES))
    const ranged: Uint8Array[] = []
    for await (const chunk of await store.get('big', { range: { offset: 1000, length: 300_000 } })) ranged.push(chunk)
    expect(ranged.map((chunk) => chunk.length)).toEqual([
      READ_CHUNK_BYTES,
      READ_CHUNK_BYTES,
      300_000 - 2 * READ_CHUNK_BYTES,
    ])
    expect(Buffer.concat(ranged)).toEqual(Buffer.from(bytes.subarray(1000, 301_000)))
  })

  it('get - an invalid key rejects with INVALID_INPUT', async () => {
    await expect(store.get('../outside')).rejects.toMatchObject({ code: 'INVALID_INPUT' })
    await expect(store.put('a~b', once(new Uint8Array(1)))).rejects.toMatchObject({ code: 'INVALID_INPUT' })
  })

  it('list - ignores files the store did not write', async () => {
    await store.put('real', once(patternBytes(3, 1)))
    await writeFile(path.join(directory, 'blobs', 'stray.blob'), 'x')
    await writeFile(path.join(path.dirname(store.pathOf('real')), 'REAL.blob'), 'x')
    expect(await listAll(store, '')).toEqual(['real'])
  })

  it('sweepTemp - removes temp files left by a crash before the first write', async () => {
    const tempDir = path.join(directory, '.tmp')
    await mkdir(tempDir)
    await writeFile(path.join(tempDir, 'crashed'), patternBytes(100, 1))
    await writeFile(path.join(tempDir, 'recent'), patternBytes(100, 2))
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000)
    await utimes(path.join(tempDir, 'crashed'), twoHoursAgo, twoHoursAgo)

    await store.put('first', once(patternBytes(10, 3)))
    expect(await readdir(tempDir)).toEqual(['recent'])
    expect(await store.sweepTemp({ olderThanMs: 0 })).toBe(1)
    expect(await readdir(tempDir)).toEqual([])
  })

  it('sweepStaged - removes a staging file untouched for a week (a resumable upload killed before its session was recorded)', async () => {
    const left = await store.staged.begin('blobs/abandoned')
    const live = await store.staged.begin('blobs/live')
    const eightDaysAgo = new Date(Date.now() - 8 * 24 * 60 * 60 * 1000)
    await utimes(path.join(directory, '.staged', left), eightDaysAgo, eightDaysAgo)

    await store.put('first', once(patternBytes(10, 3)))
    expect(await readdir(path.join(directory, '.staged'))).toEqual([live])
    expect(await store.sweepStaged({ olderThanMs: 0 })).toBe(1)
    expect(await readdir(path.join(directory, '.staged'))).toEqual([])
  })

  it('sweepTemp - spares the temp file of a write in progress', async () => {
    let release!: () => void
    let firstChunkWritten!: () => void
    const written = new Promise<void>((resolve) => {
      firstChunkWritten = resolve
    })
    async function* paused() {
      yield patternBytes(1000, 1)
      firstChunkWritten() // the store asks for more only after writing the first chunk
      await new Promise<void>((resolve) => {
        release = resolve
      })
      yield patternBytes(1000, 2)
    }
    const putting = store.put('slow', paused())
    await written
    expect(await store.sweepTemp({ olderThanMs: 0 })).toBe(0)
    release()
    expect(await putting).toEqual({ size: 2000 })
  })

  it('put - a directory that cannot be created rejects with UNAVAILABLE and keeps the cause', async () => {
    const notADirectory = path.join(directory, 'file')
    await writeFile(notADirectory, 'x')
    const broken = createFsBlobStore({ directory: notADirectory })
    const error = await broken.put('k', once(new Uint8Array(1))).catch((err: unknown) => err)
    expect(error).toMatchObject({ code: 'UNAVAILABLE', cause: { code: expect.stringMatching(/^E/) } })
  })

  it.each([
    ['directory', { directory: '' }],
    ['directory', { directory: undefined as unknown as string }],
    ['staleTempMs', { staleTempMs: -1 }],
    ['staleTempMs', { staleTempMs: Number.NaN }],
    ['staleStagedMs', { staleStagedMs: -1 }],
  ] as const)(
    'createFsBlobStore - a bad `%s` is INVALID_INPUT at construction, naming package and option',
    (option, bad) => {
      expect(() => createFsBlobStore({ directory, ...bad })).toThrow(
        expect.objectContaining({
          code: 'INVALID_INPUT',
          message: expect.stringContaining(`@pinfold/adapter-fs createFsBlobStore: option \`${option}\``),
        }),
      )
    },
  )
})

async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes
}

async function* failingAfter(bytes: Uint8Array, failure = new Error('source failed')): AsyncGenerator<Uint8Array> {
  yield bytes
  throw failure
}

async function listAll(blobs: FsBlobStore, prefix: string): Promise<string[]> {
  const keys: string[] = []
  for await (const info of blobs.list({ prefix })) keys.push(info.key)
  return keys
}
