import { setTimeout as sleep } from 'node:timers/promises'
import { snapshot } from '@pinfold/testing/reliability'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openFileUpload } from './support/raw-upload.js'
import { startTestServer, type TestServer } from './support/server.js'

/** The idle timeout the server runs with here: short, so a stall is seen in well under a second. */
const IDLE_MS = 400

type Outcome = { status: number; body: string } | { status: 'closed' }

/**
 * A multipart upload written by hand, `chunks` pieces of 4 KiB `intervalMs` apart; with `stall` it
 * stops after those chunks and never finishes, as a client whose network died would.
 */
function trickleUpload(url: string, token: string, plan: { chunks: number; intervalMs: number; stall?: boolean }) {
  const { req, finish } = openFileUpload(url, token, 'slow.bin')
  const outcome = new Promise<Outcome>((resolve) => {
    req.on('response', (res) => {
      let body = ''
      res.on('data', (chunk: Buffer) => {
        body += chunk.toString()
      })
      res.on('end', () => resolve({ status: res.statusCode!, body }))
      res.on('error', () => resolve({ status: 'closed' }))
    })
    req.on('error', () => resolve({ status: 'closed' }))
  })
  void (async () => {
    for (let i = 0; i < plan.chunks && !req.destroyed; i++) {
      req.write(Buffer.alloc(4096, i))
      await sleep(plan.intervalMs)
    }
    if (!plan.stall && !req.destroyed) finish()
  })()
  return { outcome, abort: () => req.destroy() }
}

describe('request bodies - idle timeout instead of a total one', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ PINFOLD_BODY_IDLE_TIMEOUT_MS: String(IDLE_MS) })
  })
  afterAll(() => server?.close())

  it('serve - no total request timeout caps a long upload; headers still have one', () => {
    expect(server.running.server.requestTimeout).toBe(0)
    expect(server.running.server.headersTimeout).toBeGreaterThan(0)
  })

  it('POST /v3/files - a slow but steady upload lasting 5 idle timeouts is stored whole', async () => {
    const upload = trickleUpload(server.url, await server.token(), { chunks: 20, intervalMs: IDLE_MS / 4 })
    const outcome = await upload.outcome
    expect(outcome.status).toBe(200)
    const { data } = JSON.parse((outcome as { body: string }).body) as { data: { size: number } }
    expect(data.size).toBe(20 * 4096)
  })

  it('POST /v3/files - an upload that stops sending is cut with a 408 JSON error and leaves nothing', async () => {
    const before = await snapshot(server)
    const upload = trickleUpload(server.url, await server.token(), { chunks: 3, intervalMs: 10, stall: true })
    const outcome = await Promise.race([
      upload.outcome,
      sleep(10 * IDLE_MS).then(() => ({ status: 'still waiting' }) as const),
    ])
    upload.abort()
    expect(outcome).toEqual({ status: 408, body: JSON.stringify({ error: `the request body sent no byte for 0.4 s` }) })
    expect(await snapshot(server)).toBe(before)
  })

  it('POST /v3/files - a body left unread by an early answer is drained, and cut once it stalls', async () => {
    const upload = openFileUpload(server.url, 'not-a-token', 'unread.bin')
    upload.req.write(Buffer.alloc(4096))
    const answered = new Promise<number>((resolve) => upload.req.on('response', (res) => resolve(res.statusCode!)))
    const closed = new Promise<void>((resolve) => upload.req.on('close', () => resolve()))
    expect(await answered).toBe(401)
    const outcome = await Promise.race([closed.then(() => 'closed'), sleep(10 * IDLE_MS).then(() => 'still open')])
    upload.req.destroy()
    expect(outcome).toBe('closed')
  })
})
