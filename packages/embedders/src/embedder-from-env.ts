import { type Embedder, optionChecks } from '@pinfold/interface'
import { createOpenAIEmbedder } from './openai-embedder.js'

/**
 * The OpenAI-compatible embedder configured by environment variables, or `undefined` when
 * `PINFOLD_EMBEDDINGS_URL` is unset (the server then uses the local embedder):
 * - `PINFOLD_EMBEDDINGS_URL`: API root, e.g. `https://api.openai.com/v1`
 * - `PINFOLD_EMBEDDINGS_MODEL`: e.g. `text-embedding-3-small` (required with the URL)
 * - `PINFOLD_EMBEDDINGS_DIMENSIONS`: the model's vector size, e.g. `1536` (required with the URL)
 * - `PINFOLD_EMBEDDINGS_API_KEY`: bearer token (optional)
 */
export function embedderFromEnv(env: Readonly<Record<string, string | undefined>>): Embedder | undefined {
  const baseUrl = env.PINFOLD_EMBEDDINGS_URL?.trim()
  if (!baseUrl) return undefined
  const check = optionChecks('@pinfold/embedders', 'embedderFromEnv', 'variable')
  const required = (name: string) => {
    const value = env[name]?.trim()
    if (!value) throw check.error(name, 'must be set when PINFOLD_EMBEDDINGS_URL is set')
    return value
  }
  const model = required('PINFOLD_EMBEDDINGS_MODEL')
  const dimensions = check.positiveInteger(
    'PINFOLD_EMBEDDINGS_DIMENSIONS',
    Number(required('PINFOLD_EMBEDDINGS_DIMENSIONS')),
  )
  return createOpenAIEmbedder({
    baseUrl,
    model,
    dimensions,
    apiKey: env.PINFOLD_EMBEDDINGS_API_KEY?.trim() || undefined,
  })
}
