import { describe, expect, it } from 'vitest'
import { splitPassages } from '../src/index.js'

describe('splitPassages', () => {
  it('splitPassages - keeps short text as one passage', () => {
    expect(splitPassages('One sentence. Two sentences.', 100, 20)).toEqual(['One sentence. Two sentences.'])
    expect(splitPassages('  \n ', 100, 20)).toEqual([])
  })

  it('splitPassages - breaks on sentence boundaries and repeats the last sentence within the overlap', () => {
    const text = 'Alpha is first. Beta comes next. Gamma is third. Delta ends it.'
    expect(splitPassages(text, 34, 16)).toEqual([
      'Alpha is first. Beta comes next.',
      'Beta comes next. Gamma is third.',
      'Gamma is third. Delta ends it.',
    ])
  })

  it('splitPassages - splits an overlong sentence between words, overlapping by words', () => {
    const words = Array.from({ length: 40 }, (_, i) => `w${i}`)
    const passages = splitPassages(words.join(' '), 30, 8)
    for (const passage of passages) expect(passage.length).toBeLessThanOrEqual(30)
    expect(passages[1]!.split(' ')).toContain(passages[0]!.split(' ').at(-1))
    expect(new Set(passages.flatMap((p) => p.split(' ')))).toEqual(new Set(words))
  })

  it('splitPassages - cuts a single token longer than a passage', () => {
    expect(splitPassages('a'.repeat(25), 10, 0)).toEqual(['a'.repeat(10), 'a'.repeat(10), 'a'.repeat(5)])
  })

  it('splitPassages - 1 MB of prose is split in linear time, no sentence cut where segmenting windows meet', () => {
    // V8's sentence segmenter took 33 s on this in one piece
    const sentence = 'The quick brown fox jumps over the lazy dog. '
    const text = sentence.repeat(Math.ceil((1024 * 1024) / sentence.length))
    const started = performance.now()
    const passages = splitPassages(text, 1000, 200)
    expect(performance.now() - started).toBeLessThan(5000)
    expect(passages.length).toBeGreaterThan(1000)
    expect(passages.every((p) => p.startsWith('The quick') && p.endsWith('lazy dog.'))).toBe(true)
  })
})
