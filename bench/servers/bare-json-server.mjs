// The request-rate baseline: the least a node:http server can do per request — answer every
// request with a small constant JSON body (about the size of Pinfold's small answers), no routing,
// no auth. Prints `{url, token}` as one JSON line once listening (the token is unused).
import { createServer } from 'node:http'
import { serveOnce } from './serve-once.mjs'

const body = JSON.stringify({
  data: {
    id: '0b6d7f52-8f0c-4d8c-9a53-2f0e6c1b7a10',
    name: 'bench',
    cid: 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy',
    size: 1024,
    created_at: '2025-01-01T00:00:00.000Z',
  },
})
const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) })
  res.end(body)
})
serveOnce(server)
