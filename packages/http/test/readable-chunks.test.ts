import { PassThrough, Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { readableChunks } from '../src/readable-chunks.js'

describe('readableChunks', () => {
  it('yields each pushed chunk itself, never a joined copy', async () => {
    const pushed = Array.from({ length: 50 }, (_, i) => Buffer.alloc(64 * 1024, i))
    const stream = new PassThrough({ highWaterMark: 1024 * 1024 })
    // everything is buffered before reading starts: Node's own iterator would return it joined
    for (const chunk of pushed) stream.write(chunk)
    stream.end()
    const seen: Uint8Array[] = []
    for await (const chunk of readableChunks(stream)) seen.push(chunk)
    expect(seen).toHaveLength(pushed.length)
    for (const [i, chunk] of seen.entries()) expect(chunk.buffer).toBe(pushed[i]!.buffer)
  })

  it('pauses a fast stream while its reader is behind', async () => {
    let produced = 0
    const stream = new Readable({
      read() {
        produced++
        this.push(Buffer.alloc(64 * 1024))
        if (produced === 200) this.push(null)
      },
    })
    const iterator = readableChunks(stream)
    await iterator.next()
    await new Promise((resolve) => setTimeout(resolve, 50))
    // about 1 MiB queued (16 chunks) plus the stream's own buffer, not all 200
    expect(produced).toBeLessThan(40)
    let rest = 0
    for await (const _ of iterator) rest++
    expect(rest + 1).toBe(200)
  })

  it("ends with the stream's error once the chunks before it are read", async () => {
    const stream = new PassThrough()
    stream.write(Buffer.from('first'))
    const reading = (async () => {
      const seen: string[] = []
      for await (const chunk of readableChunks(stream)) {
        seen.push(Buffer.from(chunk).toString())
        stream.destroy(new Error('cut off'))
      }
      return seen
    })()
    await expect(reading).rejects.toThrow('cut off')
  })

  it('a stream closed before its end is an error, not a silent end', async () => {
    const stream = new PassThrough()
    setTimeout(() => stream.destroy(), 10)
    await expect(
      (async () => {
        for await (const _ of readableChunks(stream)) {
        }
      })(),
    ).rejects.toThrow(/premature close/i)
  })

  it('returning early destroys the stream', async () => {
    const stream = new PassThrough()
    stream.write(Buffer.from('a'))
    stream.write(Buffer.from('b'))
    for await (const _ of readableChunks(stream)) break
    expect(stream.destroyed).toBe(true)
  })
})
