// The download baseline: a bare node:http server that streams a file from bench/.work with
// fs.createReadStream, `GET /<file name>`, no routing, no auth, no range support. Prints
// `{url, token}` as one JSON line once listening (the token is unused).
import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { createServer } from 'node:http'
import { basename, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { serveOnce } from './serve-once.mjs'

const workDir = fileURLToPath(new URL('../.work', import.meta.url))

const server = createServer(async (req, res) => {
  const path = join(workDir, basename(decodeURIComponent(req.url ?? '/')))
  const info = await stat(path).catch(() => undefined)
  if (!info?.isFile()) {
    res.writeHead(404).end()
    return
  }
  res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': info.size })
  createReadStream(path).pipe(res)
})
serveOnce(server)
