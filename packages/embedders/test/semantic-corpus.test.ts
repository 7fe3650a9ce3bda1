import { describe, expect, it } from 'vitest'
import { contentStems } from '../src/text-analysis.js'
import { loadSemanticCorpus } from './corpus.js'

const corpus = loadSemanticCorpus()

describe('semantic corpus', () => {
  it('size - holds at least 40 documents and 40 queries, each answered by a known document', () => {
    const ids = new Set(corpus.documents.map((d) => d.id))
    expect(ids.size).toBe(corpus.documents.length)
    expect(ids.size).toBeGreaterThanOrEqual(40)
    expect(corpus.queries.length).toBeGreaterThanOrEqual(40)
    for (const query of corpus.queries) expect(ids).toContain(query.answer)
  })

  it('paraphrases - are at least half of the queries and share no stemmed content word with their answer', () => {
    const paraphrases = corpus.queries.filter((q) => q.kind === 'paraphrase')
    expect(paraphrases.length * 2).toBeGreaterThanOrEqual(corpus.queries.length)
    const overlaps = paraphrases.flatMap((query) => {
      const answer = contentStems(corpus.documents.find((d) => d.id === query.answer)!.text)
      const shared = [...contentStems(query.text)].filter((stem) => answer.has(stem))
      return shared.length > 0 ? [`${query.answer} "${query.text}": ${shared.join(', ')}`] : []
    })
    expect(overlaps).toEqual([])
  })

  it('keyword queries - share at least one stemmed content word with their answer', () => {
    for (const query of corpus.queries.filter((q) => q.kind === 'keyword')) {
      const answer = contentStems(corpus.documents.find((d) => d.id === query.answer)!.text)
      expect(
        [...contentStems(query.text)].some((stem) => answer.has(stem)),
        query.text,
      ).toBe(true)
    }
  })
})
