import { randomBytes } from 'node:crypto'
import { request as httpRequest } from 'node:http'
import { eventually, type FaultPlan, type FaultSuite, openFilesUnder, startFaultSuite } from '@pinfold/testing/faults'
import { figures, printFigures } from '@pinfold/testing/reliability'
import type { TestApi } from '@pinfold/testing/test-api'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { serveOverHttp } from '../support/over-http.js'

/**
 * Faults the node bridge answers, over a real server with a filesystem blob store: a body failing
 * after its headers went out must cut the connection, and a client cutting its upload must leave
 * nothing behind. The other injected faults are tested in process (packages/http/test/reliability).
 */

const plan: FaultPlan = {}
let suite: FaultSuite
let server: TestApi

beforeAll(async () => {
  suite = await startFaultSuite(plan, { serve: (api) => serveOverHttp(api) })
  server = suite.server
})
afterAll(async () => {
  printFigures('bridge faults')
  await suite?.close()
})
beforeEach(() => {
  for (const key of Object.keys(plan)) delete plan[key as keyof FaultPlan]
})

describe('faults - blob store', () => {
  it('download - a blob read failing mid-stream cuts that response only; the server keeps serving', async () => {
    const bytes = randomBytes(1024 * 1024)
    const { body } = await suite.upload(bytes)
    plan.getFailsAfterBytes = 200_000
    // (the deadline only tells "cut at once" from "left hanging until the keep-alive timeout")
    const broken = await fetch(`${server.url}/ipfs/${body.data.cid}`, { signal: AbortSignal.timeout(2500) })
    const got = await broken.arrayBuffer().then(
      (b) => b.byteLength,
      (err: Error) => (err.name === 'TimeoutError' ? 'left hanging' : -1),
    )
    // the failure hits after the headers went out: the client must see an error, never a short
    // body that looks complete (the connection is cut rather than the body ended)
    expect(broken.status).toBe(200)
    expect(got).toBe(-1)
    delete plan.getFailsAfterBytes
    const whole = await fetch(`${server.url}/ipfs/${body.data.cid}`)
    expect(Buffer.from(await whole.arrayBuffer()).equals(bytes)).toBe(true)
    await suite.survived(broken.status, [200, 503])
  })
})

describe('faults - client aborts', () => {
  it('upload - a client that disconnects mid-upload leaks no temp file, file handle, blob or record', async () => {
    const before = await suite.state()
    const { port } = new URL(server.url)
    const boundary = 'abortboundary'
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\n\r\n`
    const token = await server.token()
    await new Promise<void>((resolve) => {
      const req = httpRequest({
        host: '127.0.0.1',
        port: Number(port),
        method: 'POST',
        path: '/v3/files',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(head.length + 50 * 1024 * 1024),
        },
      })
      req.on('error', () => resolve())
      req.write(head)
      let sent = 0
      const pump = () => {
        while (sent < 3 * 1024 * 1024) {
          sent += 64 * 1024
          if (!req.write(randomBytes(64 * 1024))) return void req.once('drain', pump)
        }
        // the server is now writing a temp file: disconnect in the middle of it
        setTimeout(() => {
          req.destroy()
          resolve()
        }, 100)
      }
      pump()
    })
    figures.faultsInjected++
    expect(await eventually(() => suite.temps() === 0 && openFilesUnder(suite.dir) === 0)).toBe(true)
    expect(await suite.state()).toEqual(before)
    await suite.survived(503)
  })
})
