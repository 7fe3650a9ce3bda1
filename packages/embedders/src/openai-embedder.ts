import { abortError, type Embedder, optionChecks, PinfoldError, throwIfAborted } from '@pinfold/interface'
import { retryDelayMs, sleep } from './retry-delay.js'
import { assertDimensions, l2Normalize } from './vector-math.js'

export interface OpenAIEmbedderOptions {
  /** API root; requests go to `{baseUrl}/embeddings`, e.g. `https://api.openai.com/v1` or `http://127.0.0.1:11434/v1`. */
  baseUrl: string
  /** Sent as `Authorization: Bearer <apiKey>` when set. */
  apiKey?: string
  model: string
  /** The model's vector size; every returned vector is checked against it. */
  dimensions: number
  /** Texts per request. Default 64. */
  batchSize?: number
  /** Per-attempt timeout. Default 30 000 ms. */
  timeoutMs?: number
  /** Retries after the first attempt, on 429, 5xx, timeouts and network errors. Default 3. */
  maxRetries?: number
  /** First backoff delay, doubled per retry (jittered) unless the server sends `Retry-After`. Default 500 ms. */
  retryBaseDelayMs?: number
  /** Longest single wait between attempts, `Retry-After` included. Default 30 000 ms. */
  maxRetryDelayMs?: number
  /** Default `globalThis.fetch`. */
  fetch?: typeof fetch
}

interface EmbeddingsResponse {
  data?: { index?: number; embedding?: unknown }[]
}

/**
 * An embedder backed by any OpenAI-compatible `POST /embeddings` endpoint (OpenAI, Azure OpenAI,
 * Ollama, vLLM, LM Studio, text-embeddings-inference…). Returned vectors are re-normalised, since
 * not every server normalises them.
 */
export function createOpenAIEmbedder(options: OpenAIEmbedderOptions): Embedder {
  const check = optionChecks('@pinfold/embedders', 'createOpenAIEmbedder')
  const baseUrl = check.nonEmptyString('baseUrl', options.baseUrl).replace(/\/+$/, '')
  check.httpUrl('baseUrl', baseUrl)
  const endpoint = new URL(`${baseUrl}/embeddings`).href
  const model = check.nonEmptyString('model', options.model)
  const dimensions = check.positiveInteger('dimensions', options.dimensions)
  const batchSize = check.positiveInteger('batchSize', options.batchSize ?? 64)
  const timeoutMs = check.positiveInteger('timeoutMs', options.timeoutMs ?? 30_000)
  const maxRetries = check.nonNegativeInteger('maxRetries', options.maxRetries ?? 3)
  const retryBaseDelayMs = check.nonNegativeNumber('retryBaseDelayMs', options.retryBaseDelayMs ?? 500)
  const maxRetryDelayMs = check.nonNegativeNumber('maxRetryDelayMs', options.maxRetryDelayMs ?? 30_000)
  const fetchImpl = options.fetch ?? globalThis.fetch
  const id = `openai-compatible:${model}@${dimensions}`
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' }
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`

  /** One request; throws `{ retryable, error }` so the loop knows whether to try again. */
  const attempt = async (input: readonly string[], signal: AbortSignal | undefined): Promise<Float32Array[]> => {
    const timeout = AbortSignal.timeout(timeoutMs)
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout
    let response: Response
    try {
      response = await fetchImpl(endpoint, {
        method: 'POST',
        headers,
        body: JSON.stringify({ model, input }),
        signal: combined,
      })
    } catch (err) {
      if (signal?.aborted) throw abortError(signal)
      const reason = timeout.aborted ? `timed out after ${timeoutMs} ms` : `request failed: ${String(err)}`
      throw new RetryableError(new PinfoldError('UNAVAILABLE', `${id}: ${reason}`, { cause: err }), null)
    }
    if (response.status === 429 || response.status >= 500) {
      const error = new PinfoldError('UNAVAILABLE', `${id}: ${endpoint} answered ${response.status}`, {
        cause: await response.text().catch(() => undefined),
        details: { status: response.status },
      })
      throw new RetryableError(error, response.headers.get('retry-after'))
    }
    if (!response.ok) {
      const body = await response.text().catch(() => '')
      // 400/413/422: the texts themselves were refused (too long, empty…); anything else is a setup problem.
      const code = [400, 413, 422].includes(response.status) ? 'INVALID_INPUT' : 'UNAVAILABLE'
      throw new PinfoldError(code, `${id}: ${endpoint} answered ${response.status}: ${body.slice(0, 500)}`, {
        details: { status: response.status },
      })
    }
    return parseEmbeddings((await response.json()) as EmbeddingsResponse, input.length)
  }

  const parseEmbeddings = (body: EmbeddingsResponse, expected: number): Float32Array[] => {
    const data = body.data
    if (!Array.isArray(data) || data.length !== expected) {
      throw new PinfoldError('UNAVAILABLE', `${id}: expected ${expected} embeddings, got ${data?.length ?? 'none'}`)
    }
    const vectors = new Array<Float32Array>(expected)
    data.forEach((item, position) => {
      const index = item.index ?? position
      if (!Array.isArray(item.embedding) || !(index >= 0 && index < expected)) {
        throw new PinfoldError('UNAVAILABLE', `${id}: malformed embedding at position ${position}`)
      }
      assertDimensions(item.embedding, dimensions, id)
      vectors[index] = l2Normalize(Float32Array.from(item.embedding as number[]))
    })
    return vectors
  }

  const embedBatch = async (input: readonly string[], signal: AbortSignal | undefined) => {
    for (let retry = 0; ; retry++) {
      try {
        return await attempt(input, signal)
      } catch (err) {
        if (!(err instanceof RetryableError)) throw err
        if (retry >= maxRetries) {
          throw new PinfoldError('UNAVAILABLE', `${id}: gave up after ${retry + 1} attempts: ${err.error.message}`, {
            cause: err.error,
          })
        }
        await sleep(retryDelayMs(retry, retryBaseDelayMs, maxRetryDelayMs, err.retryAfter), signal).catch(() => {
          throw abortError(signal!)
        })
      }
    }
  }

  return {
    id,
    dimensions,
    async embed(texts, callOptions) {
      const signal = callOptions?.signal
      throwIfAborted(signal)
      const vectors: Float32Array[] = []
      for (let start = 0; start < texts.length; start += batchSize) {
        vectors.push(...(await embedBatch(texts.slice(start, start + batchSize), signal)))
      }
      return vectors
    },
  }
}

class RetryableError extends Error {
  constructor(
    readonly error: PinfoldError,
    readonly retryAfter: string | null,
  ) {
    super(error.message)
  }
}
