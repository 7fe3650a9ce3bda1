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
})
