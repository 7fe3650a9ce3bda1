import { connect } from 'node:net'
import { figures, printFigures } from '@pinfold/testing/reliability'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../support/server.js'

/**
 * Bytes on the socket that are not HTTP at all, or HTTP that node:http's parser refuses (broken
 * request lines, bad chunked framing, oversized headers): the answer is a JSON 4xx or a closed
 * connection, never a 5xx, and the server keeps serving.
 */

const RUNS = Number(process.env.PINFOLD_FUZZ_RUNS ?? 40)

let server: TestServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(async () => {
  printFigures('fuzz-raw')
  await server?.close()
})

/** Writes `bytes`, then reads whatever comes back until the server closes or 3 s pass. */
function exchange(bytes: Uint8Array | string): Promise<string> {
  const { hostname, port } = new URL(server.url)
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname)
    let received = ''
    const done = () => {
      clearTimeout(timer)
      socket.destroy()
      resolve(received)
    }
    const timer = setTimeout(done, 3000)
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1')
    })
    socket.on('error', done)
    socket.on('close', done)
    socket.write(bytes, () => socket.end())
  })
}

/**
 * Checks every response on the socket: a request with a malformed remainder (an unterminated
 * chunked body, a stray byte) may be answered once for the request and once for the garbage.
 */
function checkRaw(received: string): void {
  const responses = received.split(/(?=HTTP\/1\.1 \d{3} )/).filter((r) => r.startsWith('HTTP/1.1 '))
  if (responses.length === 0) checkResponse(received)
  for (const response of responses) checkResponse(response)
}

function checkResponse(response: string): void {
  figures.inputs++
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1] ?? 0)
  if (status !== 0) figures.statuses[status] = (figures.statuses[status] ?? 0) + 1
  if (status >= 500) figures.fiveHundreds++
  expect(status, response.slice(0, 300)).toBeLessThan(500)
  if (status >= 400) {
    const body = response.slice(response.indexOf('\r\n\r\n') + 4)
    // a chunked body starts with its size line; the JSON is what follows it
    const json = body.includes('{') ? body.slice(body.indexOf('{'), body.lastIndexOf('}') + 1) : body
    const parsed = JSON.parse(json) as Record<string, unknown>
    expect(Object.keys(parsed)).toEqual(['error'])
    expect(typeof parsed.error).toBe('string')
  }
}

const REQUEST_LINES = [
  'GET / HTTP/1.1',
  'GET /v3/files/public HTTP/1.1',
  'POST /v3/files HTTP/1.1',
  'GARBAGE',
  'GET /ipfs/%zz HTTP/1.1',
  'GET  HTTP/1.1',
  'GET /\u0000 HTTP/1.1',
  'PATCH /v3/files/a/b HTTP/9.9',
  `GET /${'a'.repeat(20_000)} HTTP/1.1`,
] as const

describe('fuzz - raw sockets', () => {
  it('any bytes - random bytes on the socket never yield a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 1, maxLength: 512 }), async (bytes) =>
        checkRaw(await exchange(bytes)),
      ),
      { numRuns: RUNS },
    )
  })

  it('malformed HTTP - bad request lines, headers and chunked framing are a JSON 4xx', async () => {
    const header = fc.oneof(
      fc.constantFrom(
        'Host: x',
        'Content-Length: -1',
        'Content-Length: 5\r\nContent-Length: 6',
        'Transfer-Encoding: chunked',
        'Transfer-Encoding: chunked\r\nContent-Length: 3',
        'Bad Header',
        ': empty-name',
        `X-Big: ${'b'.repeat(20_000)}`,
        'Authorization: Bearer \u0001',
      ),
      fc.string({ maxLength: 40 }),
    )
    const body = fc.oneof(
      fc.constantFrom('', 'zz\r\nabc\r\n0\r\n\r\n', '5\r\nab\r\n', 'ffffffffffffffff\r\n', '{"name":'),
      fc.string({ maxLength: 60 }),
    )
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...REQUEST_LINES),
        fc.array(header, { maxLength: 4 }),
        body,
        async (line, headers, payload) => {
          const raw = `${line}\r\nHost: 127.0.0.1\r\n${headers.join('\r\n')}${headers.length ? '\r\n' : ''}\r\n${payload}`
          checkRaw(await exchange(raw))
        },
      ),
      { numRuns: RUNS },
    )
  })

  it('Host classes - malformed, path and query characters, IP literals, subdomain forms: never a 5xx', async () => {
    const { port } = new URL(server.url)
    const cid = 'bafkqaaa'
    const host = fc.oneof(
      fc.constantFrom(
        `127.0.0.1:${port}/healthz?`,
        `127.0.0.1:${port}#frag`,
        `user:pass@127.0.0.1:${port}`,
        '127.0.0.1:99999999',
        '[::1',
        '[::1]:80',
        '[fe80::1%25eth0]',
        '0x7f.1',
        '2130706433',
        `${cid}.ipfs.127.0.0.1`,
        `${cid}.ipfs.localhost:${port}`,
        'QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG.ipfs.localhost',
        'not-a-cid.ipfs.localhost',
        '.ipfs.localhost',
        'a..b',
        '',
      ),
      fc.string({ maxLength: 40 }).filter((h) => !/[\r\n]/.test(h)),
    )
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...REQUEST_LINES.slice(0, 2), `GET /ipfs/${cid} HTTP/1.1`),
        host,
        async (line, h) => {
          const received = await exchange(`${line}\r\nHost: ${h}\r\nConnection: close\r\n\r\n`)
          checkRaw(received)
          // a Host that could carry a path never reaches a route: nothing but the 400 comes back
          if (/[/?#@\\]/.test(h)) expect(received, h).toMatch(/^HTTP\/1\.1 400 /)
        },
      ),
      { numRuns: RUNS },
    )
  })

  it('after the fuzzing - the server still answers a plain request', async () => {
    const res = await server.api('/v3/data/testAuthentication')
    expect(res.status).toBe(200)
  })
})
