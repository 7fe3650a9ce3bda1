// The API baseline of `gateway-small.ts`: a bare node:http handler doing what a small authenticated
// GET must do and nothing else — verify the HS256 bearer token with jose (the library Pinfold uses;
// the key imported once, no cache of verified tokens), look the id up in a Map, answer it as JSON.
// `GET /v3/files/public/{id}`; `POST /__seed` with a JSON `{id, name, cid, size}` adds a record.
// BENCH_SECRET signs the tokens. Prints `{url, token}` as one JSON line once listening.
import { createServer } from 'node:http'
import { jwtVerify } from 'jose'
import { serveOnce } from './serve-once.mjs'

const key = new TextEncoder().encode(process.env.BENCH_SECRET ?? '')
const files = new Map()

function answer(res, status, body) {
  const text = JSON.stringify(body)
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  })
  res.end(text)
}

const server = createServer(async (req, res) => {
  if (req.method === 'POST' && req.url === '/__seed') {
    let body = ''
    for await (const chunk of req) body += chunk
    const file = JSON.parse(body)
    files.set(file.id, file)
    return answer(res, 200, { data: file })
  }
  const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1]
  try {
    if (!token) throw new Error('no token')
    await jwtVerify(token, key, { algorithms: ['HS256'] })
  } catch {
    return answer(res, 401, { error: 'unauthorized' })
  }
  const id = /^\/v3\/files\/public\/([^/?]+)$/.exec(req.url ?? '')?.[1]
  const file = id && files.get(id)
  if (!file) return answer(res, 404, { error: 'not found' })
  answer(res, 200, { data: file })
})
serveOnce(server)
