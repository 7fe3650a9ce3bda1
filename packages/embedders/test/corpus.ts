import { readFileSync } from 'node:fs'

/** The hand-written retrieval corpus shipped in `test/fixtures`, shared by tests and the benchmark. */
export interface SemanticCorpus {
  documents: { id: string; text: string }[]
  queries: { text: string; answer: string; kind: 'paraphrase' | 'keyword' }[]
}

export function loadSemanticCorpus(): SemanticCorpus {
  return JSON.parse(readFileSync(new URL('./fixtures/semantic-corpus.json', import.meta.url), 'utf8')) as SemanticCorpus
}
