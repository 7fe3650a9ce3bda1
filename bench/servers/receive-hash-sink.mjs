// The receive floor: a bare node:http server that reads a request body and feeds it to one
// streaming SHA-256, and nothing else (no parsing, no route, no auth, no storage). What a server
// on this machine can take in over loopback while hashing every byte; an upload server parses the
// same bytes as multipart and stores them besides. Answers `{"sha256": "<hex of the whole body>"}`.
// Prints `{url, token}` as one JSON line once listening (the token is unused).
import { createHash } from 'node:crypto'
import { createServer } from 'node:http'
import { serveOnce } from './serve-once.mjs'

const server = createServer((req, res) => {
  const hash = createHash('sha256')
  req.on('data', (chunk) => hash.update(chunk))
  req.on('end', () => res.end(JSON.stringify({ sha256: hash.digest('hex') })))
})
serveOnce(server)
