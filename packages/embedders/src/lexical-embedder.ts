import { type Embedder, optionChecks, throwIfAborted } from '@pinfold/interface'
import { lexicalVector } from './lexical-features.js'
import { analyzeText } from './text-analysis.js'
import { l2Normalize } from './vector-math.js'

export interface LexicalEmbedderOptions {
  /** Hash slots; more slots mean fewer collisions between unrelated words. Default 256. */
  dimensions?: number
}

/**
 * Bag of stemmed words, hashed: finds documents that share words with the query, never synonyms.
 * The fallback when no word vectors are installed, and a baseline for benchmarks.
 */
export function createLexicalEmbedder(options: LexicalEmbedderOptions = {}): Embedder {
  const dimensions = optionChecks('@pinfold/embedders', 'createLexicalEmbedder').positiveInteger(
    'dimensions',
    options.dimensions ?? 256,
  )
  return {
    id: `pinfold-lexical:porter2+fnv1a-${dimensions}@1`,
    dimensions,
    async embed(texts, callOptions) {
      throwIfAborted(callOptions?.signal)
      return texts.map((text) => l2Normalize(lexicalVector(analyzeText(text), dimensions, () => 1)))
    },
  }
}
