// The upload floor: the least any server must do with a multipart upload that it hashes — parse it
// with busboy on node:http's own stream (the parser Pinfold used until it moved to multipasta over
// web streams; kept as the floor so figures stay comparable across that change) and feed the file
// part to one streaming SHA-256 — and nothing else: no route, no auth, no CID, no storage.
// Answers `{"sha256": "<hex>"}`.
// Prints `{url, token}` as one JSON line once listening (the token is unused).
import { createHash } from 'node:crypto'
import { createServer } from 'node:http'
import busboy from 'busboy'
import { serveOnce } from './serve-once.mjs'

const server = createServer((req, res) => {
  const parser = busboy({ headers: req.headers, fileHwm: 1024 * 1024, highWaterMark: 1024 * 1024 })
  const hash = createHash('sha256')
  parser.on('file', (_name, stream) => stream.on('data', (chunk) => hash.update(chunk)))
  parser.on('close', () => res.end(JSON.stringify({ sha256: hash.digest('hex') })))
  parser.on('error', () => res.writeHead(400).end())
  req.pipe(parser)
})
serveOnce(server)
