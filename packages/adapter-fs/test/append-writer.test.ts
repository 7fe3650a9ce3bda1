import type { FileHandle } from 'node:fs/promises'
import { mkdtemp, open, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { patternBytes } from '@pinfold/conformance'
import { MIN_CHUNK_WEIGHT } from '@pinfold/interface'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { appendWriter, WRITE_AHEAD_BYTES } from '../src/append-writer.js'

let directory: string

beforeEach(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'pinfold-append-'))
})

afterEach(async () => {
  await rm(directory, { recursive: true, force: true })
})

/** A real file handle whose `writev` calls are recorded (and optionally shortened or failed). */
async function recordedHandle(behaviour: { maxBytesPerCall?: number; failOnCall?: number } = {}) {
  const file = path.join(directory, 'out')
  const handle = await open(file, 'w')
  const calls: number[] = []
  const writev = handle.writev.bind(handle)
  handle.writev = (async (buffers: Uint8Array[], position?: number) => {
    calls.push(buffers.length)
    if (calls.length === behaviour.failOnCall) throw new Error('disk on fire')
    const limit = behaviour.maxBytesPerCall
    if (!limit) return writev(buffers, position)
    // write only a prefix of the batch, as a short write would
    const prefix: Uint8Array[] = []
    let room = limit
    for (const buffer of buffers) {
      if (room === 0) break
      prefix.push(buffer.subarray(0, room))
      room -= Math.min(room, buffer.length)
    }
    return writev(prefix, position)
  }) as FileHandle['writev']
  return { file, handle, calls }
}

describe('appendWriter', () => {
  it('writes every chunk in order, gathering the ones that arrive during a write into one writev', async () => {
    const { file, handle, calls } = await recordedHandle()
    const chunks = Array.from({ length: 200 }, (_, i) => patternBytes(1000 + i, i))
    let reported = 0
    const writer = appendWriter(handle, (bytes) => (reported += bytes))
    for (const chunk of chunks) await writer.write(chunk)
    await writer.finish()
    await handle.close()
    const expected = Buffer.concat(chunks)
    expect((await readFile(file)).equals(expected)).toBe(true)
    expect(reported).toBe(expected.length)
    // chunks queued while the first writev ran went out together
    expect(calls.length).toBeLessThan(chunks.length / 10)
  })

  it('makes the caller wait once WRITE_AHEAD_BYTES are queued, so memory stays bounded', async () => {
    const { handle } = await recordedHandle()
    const writer = appendWriter(handle, () => {})
    const chunk = new Uint8Array(64 * 1024)
    let resolvedAtOnce = 0
    for (let i = 0; i < (2 * WRITE_AHEAD_BYTES) / chunk.length; i++) {
      let done = false
      const writing = writer.write(chunk).then(() => (done = true))
      await Promise.resolve()
      if (done) resolvedAtOnce++
      await writing
    }
    await writer.finish()
    await handle.close()
    // the first chunks return at once; a full queue has to wait for the disk
    expect(resolvedAtOnce).toBeGreaterThan(0)
    expect(resolvedAtOnce).toBeLessThan((2 * WRITE_AHEAD_BYTES) / chunk.length)
  })

  it('counts each queued chunk as at least MIN_CHUNK_WEIGHT: 1-byte chunks fill the queue by the thousand, not the million', async () => {
    const { handle } = await recordedHandle()
    let release!: () => void
    const released = new Promise<void>((resolve) => {
      release = resolve
    })
    const writev = handle.writev.bind(handle)
    handle.writev = (async (buffers: Uint8Array[], position?: number) => {
      await released // a disk that does not answer
      return writev(buffers, position)
    }) as FileHandle['writev']
    const writer = appendWriter(handle, () => {})
    let accepted = 0
    for (;;) {
      let done = false
      const writing = writer.write(new Uint8Array(1)).then(() => (done = true))
      await Promise.resolve()
      await Promise.resolve()
      if (!done) break
      accepted++
      await writing
    }
    release()
    await writer.finish()
    await handle.close()
    // the first chunk is in the writev that hangs; the rest wait for it up to the weight bound
    expect(accepted).toBeLessThanOrEqual(WRITE_AHEAD_BYTES / MIN_CHUNK_WEIGHT)
    expect(accepted).toBeGreaterThan(0)
  })

  it('continues a short write from where it stopped', async () => {
    const { file, handle, calls } = await recordedHandle({ maxBytesPerCall: 777 })
    const chunks = Array.from({ length: 10 }, (_, i) => patternBytes(500, i))
    const writer = appendWriter(handle, () => {})
    for (const chunk of chunks) await writer.write(chunk)
    await writer.finish()
    await handle.close()
    expect((await readFile(file)).equals(Buffer.concat(chunks))).toBe(true)
    expect(calls.length).toBeGreaterThanOrEqual(Math.ceil(5000 / 777))
  })

  it('reports a failed write to the next write or to finish, and writes nothing after it', async () => {
    const { handle, calls } = await recordedHandle({ failOnCall: 1 })
    const writer = appendWriter(handle, () => {})
    const chunk = new Uint8Array(WRITE_AHEAD_BYTES)
    // the first write starts the failing writev; a later call must see its failure
    await writer.write(new Uint8Array(10)).catch(() => {})
    await expect(
      (async () => {
        for (let i = 0; i < 3; i++) await writer.write(chunk)
      })(),
    ).rejects.toThrow('disk on fire')
    await expect(writer.finish()).rejects.toThrow('disk on fire')
    expect(calls).toHaveLength(1)
    await handle.close()
  })
})
