import { describe, expect, it } from 'vitest'
import { createExtractionPool, type ExtractionPoolOptions, type ExtractOptions, extractPassages } from '../src/index.js'

const BAD_POOL: [string, ExtractionPoolOptions][] = [
  ['threads', { threads: 0 }],
  ['maxQueue', { maxQueue: 1.5 }],
  ['timeoutMs', { timeoutMs: -1 }],
  ['maxHeapMb', { maxHeapMb: 0 }],
]

const BAD_EXTRACT: [string, Partial<ExtractOptions>][] = [
  ['maxBytes', { maxBytes: 0 }],
  ['passageChars', { passageChars: -1 }],
  ['overlapChars', { passageChars: 100, overlapChars: 100 }],
  ['maxPages', { maxPages: 0 }],
  ['maxTextChars', { maxTextChars: 0 }],
  ['maxInflatedBytes', { maxInflatedBytes: 0 }],
]

const named = (factory: string, option: string) =>
  expect.objectContaining({
    code: 'INVALID_INPUT',
    message: expect.stringContaining(`@pinfold/text-extract ${factory}: option \`${option}\``),
  })

async function* text() {
  yield new TextEncoder().encode('hello')
}

describe('text-extract options', () => {
  it.each(BAD_POOL)('createExtractionPool - a bad `%s` is INVALID_INPUT at construction', (option, bad) => {
    expect(() => createExtractionPool(bad)).toThrow(named('createExtractionPool', option))
  })

  it.each(BAD_EXTRACT)('extractPassages - a bad `%s` is INVALID_INPUT before any byte is read', async (option, bad) => {
    await expect(extractPassages(text(), { mimeType: 'text/plain', ...bad })).rejects.toThrow(
      named('extractPassages', option),
    )
  })
})
