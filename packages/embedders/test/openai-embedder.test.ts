import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { createOpenAIEmbedder, embedderFromEnv } from '../src/index.js'

type Handler = (body: { model: string; input: string[] }, res: ServerResponse, req: IncomingMessage) => void

let server: Server | undefined
afterEach(async () => {
  const running = server
  server = undefined
  if (!running) return
  running.closeAllConnections()
  await new Promise((resolve) => running.close(resolve))
})

/** A local OpenAI-compatible `/v1/embeddings` server; `handler` decides each answer. */
async function startServer(handler: Handler): Promise<{ baseUrl: string; requests: string[][] }> {
  const requests: string[][] = []
  server = createServer(async (req, res) => {
    let raw = ''
    for await (const chunk of req) raw += chunk
    const body = JSON.parse(raw) as { model: string; input: string[] }
    requests.push(body.input)
    handler(body, res, req)
  })
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, requests }
}

/** Answers with vectors [len(text), 1, 0…] in reverse order, to prove results are put back in `index` order. */
function answer(res: ServerResponse, input: string[], dimensions = 4) {
  const data = input.map((text, index) => ({
    index,
    embedding: Array.from({ length: dimensions }, (_, d) => (d === 0 ? text.length : d === 1 ? 1 : 0)),
  }))
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: data.reverse() }))
}

const fast = { retryBaseDelayMs: 1, maxRetryDelayMs: 50 }

describe('createOpenAIEmbedder', () => {
  it('embed - splits texts into batches and returns normalised vectors in input order', async () => {
    const { baseUrl, requests } = await startServer((body, res, req) => {
      expect(req.url).toBe('/v1/embeddings')
      expect(req.headers.authorization).toBe('Bearer sk-test')
      expect(body.model).toBe('test-model')
      answer(res, body.input)
    })
    const embedder = createOpenAIEmbedder({
      baseUrl,
      apiKey: 'sk-test',
      model: 'test-model',
      dimensions: 4,
      batchSize: 2,
    })
    const vectors = await embedder.embed(['a', 'bbb', 'cc', 'dddd', 'e'])
    expect(requests).toEqual([['a', 'bbb'], ['cc', 'dddd'], ['e']])
    expect(vectors.map((v) => Math.round((v[0]! / v[1]!) * 10) / 10)).toEqual([1, 3, 2, 4, 1])
    for (const v of vectors) expect(Math.hypot(...v)).toBeCloseTo(1, 5)
  })

  it('embed - retries after 429 honouring Retry-After, then succeeds', async () => {
    let calls = 0
    const { baseUrl } = await startServer((body, res) => {
      if (++calls === 1) return res.writeHead(429, { 'retry-after': '0' }).end('slow down')
      answer(res, body.input)
    })
    const embedder = createOpenAIEmbedder({ baseUrl, model: 'm', dimensions: 4, ...fast })
    expect(await embedder.embed(['hello'])).toHaveLength(1)
    expect(calls).toBe(2)
  })

  it('embed - gives up after maxRetries server errors with UNAVAILABLE and the cause', async () => {
    let calls = 0
    const { baseUrl } = await startServer((_, res) => {
      calls++
      res.writeHead(500).end('boom')
    })
    const embedder = createOpenAIEmbedder({ baseUrl, model: 'm', dimensions: 4, maxRetries: 2, ...fast })
    const error = await embedder.embed(['hello']).catch((err: unknown) => err)
    expect(error).toMatchObject({ code: 'UNAVAILABLE', message: expect.stringMatching(/gave up after 3 attempts/) })
    expect((error as Error).cause).toMatchObject({ code: 'UNAVAILABLE', details: { status: 500 } })
    expect(calls).toBe(3)
  })

  it('embed - times out a hanging request and reports UNAVAILABLE', async () => {
    const { baseUrl } = await startServer(() => {
      // never answers
    })
    const embedder = createOpenAIEmbedder({ baseUrl, model: 'm', dimensions: 4, timeoutMs: 50, maxRetries: 1, ...fast })
    await expect(embedder.embed(['hello'])).rejects.toMatchObject({
      code: 'UNAVAILABLE',
      message: expect.stringMatching(/timed out after 50 ms/),
    })
  })

  it('embed - rejects with ABORTED, without retrying, when the caller aborts', async () => {
    const controller = new AbortController()
    // aborted once the request is in (never answered): a timer raced the request on a loaded machine
    const { baseUrl, requests } = await startServer(() => controller.abort())
    const embedder = createOpenAIEmbedder({ baseUrl, model: 'm', dimensions: 4, ...fast })
    const pending = embedder.embed(['hello'], { signal: controller.signal })
    await expect(pending).rejects.toMatchObject({ code: 'ABORTED' })
    expect(requests).toHaveLength(1)
  })

  it('embed - rejects vectors whose size differs from `dimensions` with INVALID_INPUT', async () => {
    const { baseUrl } = await startServer((body, res) => answer(res, body.input, 3))
    const embedder = createOpenAIEmbedder({ baseUrl, model: 'm', dimensions: 4 })
    await expect(embedder.embed(['hello'])).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/3-dimensional vector but is configured for 4/),
    })
  })

  it('embed - does not retry a 400 and reports INVALID_INPUT with the server message', async () => {
    let calls = 0
    const { baseUrl } = await startServer((_, res) => {
      calls++
      res.writeHead(400).end('input too long')
    })
    const embedder = createOpenAIEmbedder({ baseUrl, model: 'm', dimensions: 4, ...fast })
    await expect(embedder.embed(['hello'])).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/400: input too long/),
    })
    expect(calls).toBe(1)
  })
})

describe('embedderFromEnv', () => {
  it('embedderFromEnv - returns undefined when PINFOLD_EMBEDDINGS_URL is unset', () => {
    expect(embedderFromEnv({})).toBeUndefined()
  })

  it('embedderFromEnv - builds an OpenAI-compatible embedder from the variables', async () => {
    const { baseUrl } = await startServer((body, res, req) => {
      expect(req.headers.authorization).toBe('Bearer k')
      answer(res, body.input, 8)
    })
    const embedder = embedderFromEnv({
      PINFOLD_EMBEDDINGS_URL: baseUrl,
      PINFOLD_EMBEDDINGS_MODEL: 'nomic-embed-text',
      PINFOLD_EMBEDDINGS_DIMENSIONS: '8',
      PINFOLD_EMBEDDINGS_API_KEY: 'k',
    })
    expect(embedder).toMatchObject({ id: 'openai-compatible:nomic-embed-text@8', dimensions: 8 })
    expect(await embedder!.embed(['x'])).toHaveLength(1)
  })

  it('embedderFromEnv - names the missing variable', () => {
    expect(() => embedderFromEnv({ PINFOLD_EMBEDDINGS_URL: 'http://127.0.0.1:1/v1' })).toThrow(
      /PINFOLD_EMBEDDINGS_MODEL/,
    )
  })
})
