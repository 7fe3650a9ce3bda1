import { describe, expect, it } from 'vitest'
import {
  createLexicalEmbedder,
  createLocalEmbedder,
  createOpenAIEmbedder,
  createTransformersEmbedder,
  embedderFromEnv,
} from '../src/index.js'

const silent = { warn: () => {} }
const openai = { baseUrl: 'http://127.0.0.1:1/v1', model: 'm', dimensions: 4 }
const transformers = { modelPath: '/models', model: 'm', dimensions: 4 }
const env = { PINFOLD_EMBEDDINGS_URL: 'http://127.0.0.1:1/v1', PINFOLD_EMBEDDINGS_MODEL: 'm' }

/** `[factory, option, build]`: one bad option each; `variable` for the environment's names. */
const BAD: [string, string, () => unknown][] = [
  ['createOpenAIEmbedder', 'baseUrl', () => createOpenAIEmbedder({ ...openai, baseUrl: '' })],
  ['createOpenAIEmbedder', 'baseUrl', () => createOpenAIEmbedder({ ...openai, baseUrl: 'not a url' })],
  ['createOpenAIEmbedder', 'model', () => createOpenAIEmbedder({ ...openai, model: ' ' })],
  ['createOpenAIEmbedder', 'dimensions', () => createOpenAIEmbedder({ ...openai, dimensions: 0 })],
  ['createOpenAIEmbedder', 'batchSize', () => createOpenAIEmbedder({ ...openai, batchSize: 0 })],
  ['createOpenAIEmbedder', 'timeoutMs', () => createOpenAIEmbedder({ ...openai, timeoutMs: -5 })],
  ['createOpenAIEmbedder', 'maxRetries', () => createOpenAIEmbedder({ ...openai, maxRetries: -1 })],
  ['createOpenAIEmbedder', 'retryBaseDelayMs', () => createOpenAIEmbedder({ ...openai, retryBaseDelayMs: -1 })],
  ['createOpenAIEmbedder', 'maxRetryDelayMs', () => createOpenAIEmbedder({ ...openai, maxRetryDelayMs: Number.NaN })],
  ['createLexicalEmbedder', 'dimensions', () => createLexicalEmbedder({ dimensions: 0 })],
  ['createLocalEmbedder', 'lexicalDimensions', () => createLocalEmbedder({ lexicalDimensions: 0, logger: silent })],
  ['createLocalEmbedder', 'lexicalWeight', () => createLocalEmbedder({ lexicalWeight: 2, logger: silent })],
  ['createLocalEmbedder', 'sifA', () => createLocalEmbedder({ sifA: -1, logger: silent })],
  ['createTransformersEmbedder', 'modelPath', () => createTransformersEmbedder({ ...transformers, modelPath: '' })],
  ['createTransformersEmbedder', 'model', () => createTransformersEmbedder({ ...transformers, model: '' })],
  ['createTransformersEmbedder', 'dimensions', () => createTransformersEmbedder({ ...transformers, dimensions: 0 })],
  [
    'embedderFromEnv',
    'PINFOLD_EMBEDDINGS_MODEL',
    () => embedderFromEnv({ PINFOLD_EMBEDDINGS_URL: env.PINFOLD_EMBEDDINGS_URL }),
  ],
  [
    'embedderFromEnv',
    'PINFOLD_EMBEDDINGS_DIMENSIONS',
    () => embedderFromEnv({ ...env, PINFOLD_EMBEDDINGS_DIMENSIONS: 'x' }),
  ],
]

describe('embedder options', () => {
  it.each(BAD)(
    '%s - a bad `%s` is INVALID_INPUT at construction, naming package and option',
    (factory, option, build) => {
      const noun = factory === 'embedderFromEnv' ? 'variable' : 'option'
      expect(build).toThrow(
        expect.objectContaining({
          code: 'INVALID_INPUT',
          message: expect.stringContaining(`@pinfold/embedders ${factory}: ${noun} \`${option}\``),
        }),
      )
    },
  )
})
