import { monitorEventLoopDelay } from 'node:perf_hooks'
import { createLexicalEmbedder } from '@pinfold/embedders'
import { form, type TestApi } from '@pinfold/testing/test-api'
import { startVectorApi } from '@pinfold/testing/vectors'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { extractionBombs } from './support/extraction-bombs.js'

// Tenant files built to be slow to extract must not stall the server for everyone: extraction runs
// on worker threads with limits, so /healthz stays prompt while they are vectorized.
describe('vectorize - extraction limits over HTTP', () => {
  let server: TestApi
  beforeAll(async () => {
    server = await startVectorApi({ embedder: createLexicalEmbedder() })
    // The first vectorize pays one-off costs on the main thread (loading the extraction and
    // embedding code, starting the pool): 200-300 ms here, 566 ms once in a loaded CI run. The
    // stalls measured below are the bombs', so that warm-up happens first, on an ordinary file.
    const warmUp = await uploadInto(server, '<p>an ordinary page</p>', 'warm-up.html', 'text/html')
    expect((await server.api(`/v3/vectorize/files/${warmUp}`, { method: 'POST' })).status).toBe(200)
  })
  afterAll(() => server.close())

  /** Uploads a private file into a new group (vectorizing needs one); answers its id. */
  async function uploadInto(target: TestApi, bytes: string | Uint8Array, name: string, type: string) {
    const group = await target.api('/v3/groups/private', { method: 'POST', body: JSON.stringify({ name: 'bombs' }) })
    const groupId = ((await group.json()) as { data: { id: string } }).data.id
    const body = form({ network: 'private', group_id: groupId, name }, { bytes, name, type })
    const res = await target.api('/v3/files', { method: 'POST', body })
    expect(res.status).toBe(200)
    return ((await res.json()) as { data: { id: string } }).data.id
  }

  const isVectorized = async (target: TestApi, id: string) =>
    ((await (await target.api(`/v3/files/private/${id}`)).json()) as { data: { vectorized: boolean } }).data.vectorized

  // 500 ms: generous for a loaded 2-core machine; on the main thread these files stalled it for 17-48 s.
  const PROMPT_MS = 500

  /**
   * Vectorizes the file on `server` while polling /healthz every 20 ms, and checks that no health
   * answer took, and no event-loop stall lasted, `PROMPT_MS` or more. Answers the vectorize response.
   */
  async function vectorizeWatched(id: string) {
    const stalls = monitorEventLoopDelay({ resolution: 10 })
    stalls.enable()
    let slowestHealthMs = 0
    let done = false
    const poll = (async () => {
      while (!done) {
        const started = performance.now()
        expect((await server.fetch(`${server.url}/healthz`)).status).toBe(200)
        slowestHealthMs = Math.max(slowestHealthMs, performance.now() - started)
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
    })()
    const res = await server.api(`/v3/vectorize/files/${id}`, { method: 'POST' })
    const body = (await res.json()) as { error?: string }
    done = true
    await poll
    stalls.disable()
    expect(slowestHealthMs).toBeLessThan(PROMPT_MS)
    expect(stalls.max / 1e6).toBeLessThan(PROMPT_MS)
    return { status: res.status, body }
  }

  it('POST /v3/vectorize/files - 1 MB of nested <div>s is vectorized while /healthz stays prompt', async () => {
    const id = await uploadInto(server, extractionBombs.nestedHtml(), 'nested.html', 'text/html')
    expect((await vectorizeWatched(id)).status).toBe(200)
    expect(await isVectorized(server, id)).toBe(true)
  })

  it('POST /v3/vectorize/files - JSON nested 100,000 deep is vectorized, not a 500', async () => {
    const id = await uploadInto(server, extractionBombs.nestedJson(), 'nested.json', 'application/json')
    expect((await vectorizeWatched(id)).status).toBe(200)
  })

  it('POST /v3/vectorize/files - a PDF inflating to 64 MiB is a 413 and the file stays unvectorized', async () => {
    const id = await uploadInto(server, extractionBombs.inflatingPdf(64), 'bomb.pdf', 'application/pdf')
    const { status, body } = await vectorizeWatched(id)
    expect(status).toBe(413)
    expect(body.error).toMatch(/cannot extract text from PDF: its streams inflate to more than \d+ bytes/)
    expect(await isVectorized(server, id)).toBe(false)
  })

  it('POST /v3/vectorize/files - an extraction past its time limit is a 422 and the file stays unvectorized', async () => {
    // 5 ms is less than a worker needs to start, so every extraction here runs out of time
    const hurried = await startVectorApi({ embedder: createLexicalEmbedder(), extraction: { timeoutMs: 5 } })
    try {
      const id = await uploadInto(hurried, 'A sentence that needs a worker.', 'doc.txt', 'text/plain')
      const vectorized = await hurried.api(`/v3/vectorize/files/${id}`, { method: 'POST' })
      expect(vectorized.status).toBe(422)
      expect(await vectorized.json()).toEqual({ error: 'the TEXT file could not be extracted within 0.005 s' })
      expect(await isVectorized(hurried, id)).toBe(false)
    } finally {
      await hurried.close()
    }
  })
})
