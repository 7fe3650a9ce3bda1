import { describe, expect, it } from 'vitest'
import { batchedLines } from '../src/batched-lines.js'

describe('batched log lines', () => {
  it('write - lines of one event-loop turn go out in one write, in order; flush writes what is pending', async () => {
    const writes: string[] = []
    const lines = batchedLines((text) => writes.push(text))
    lines.write('a\n')
    lines.write('b\n')
    expect(writes).toEqual([])
    await new Promise((resolve) => setImmediate(resolve))
    expect(writes).toEqual(['a\nb\n'])
    lines.write('c\n')
    lines.flush()
    expect(writes).toEqual(['a\nb\n', 'c\n'])
    await new Promise((resolve) => setImmediate(resolve))
    expect(writes).toHaveLength(2) // the scheduled flush found nothing left
  })

  it('write - a turn of many lines goes out in writes of at most 4 KiB cut at line ends (a pipe writes those whole)', async () => {
    const writes: string[] = []
    const lines = batchedLines((text) => writes.push(text))
    const line = `${'x'.repeat(99)}\n`
    for (let i = 0; i < 100; i++) lines.write(line)
    lines.write(`${'y'.repeat(5000)}\n`)
    await new Promise((resolve) => setImmediate(resolve))
    expect(writes.join('')).toBe(`${line.repeat(100)}${'y'.repeat(5000)}\n`)
    expect(writes.slice(0, -1).every((text) => text.length <= 4096 && text.endsWith('\n'))).toBe(true)
    expect(writes.at(-1)).toBe(`${'y'.repeat(5000)}\n`)
  })
})
