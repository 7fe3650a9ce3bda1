import type { Embedder } from '@pinfold/interface'
import { cosine } from '../src/vector-math.js'
import type { SemanticCorpus } from './corpus.js'

export interface HitRates {
  queries: number
  hitAt1: number
  hitAt3: number
}

export interface RetrievalQuality {
  overall: HitRates
  paraphrase: HitRates
  keyword: HitRates
  /** Queries whose answer was not in the top 3, with what came first instead. */
  misses: { query: string; answer: string; top: string[] }[]
}

/** Embeds every document and query and ranks the documents by cosine similarity for each query. */
export async function measureRetrieval(embedder: Embedder, corpus: SemanticCorpus): Promise<RetrievalQuality> {
  const documents = await embedder.embed(
    corpus.documents.map((d) => d.text),
    { purpose: 'document' },
  )
  const queries = await embedder.embed(
    corpus.queries.map((q) => q.text),
    { purpose: 'query' },
  )
  const ranks = corpus.queries.map((query, i) => {
    const ranked = corpus.documents
      .map((doc, j) => ({ id: doc.id, score: cosine(queries[i]!, documents[j]!) }))
      .sort((a, b) => b.score - a.score)
      .map((r) => r.id)
    return { query, top: ranked.slice(0, 3), rank: ranked.indexOf(query.answer) }
  })
  const rates = (kind?: 'paraphrase' | 'keyword'): HitRates => {
    const subset = ranks.filter((r) => kind === undefined || r.query.kind === kind)
    return {
      queries: subset.length,
      hitAt1: subset.filter((r) => r.rank === 0).length / subset.length,
      hitAt3: subset.filter((r) => r.rank < 3).length / subset.length,
    }
  }
  return {
    overall: rates(),
    paraphrase: rates('paraphrase'),
    keyword: rates('keyword'),
    misses: ranks.filter((r) => r.rank >= 3).map((r) => ({ query: r.query.text, answer: r.query.answer, top: r.top })),
  }
}
