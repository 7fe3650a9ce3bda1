// The download baseline: a bare node:http server that streams a file from bench/.work with
// fs.createReadStream, `GET /<file name>`, no routing, no auth, no range support. Prints
// `{url, token}` as one JSON line once listening (the token is unused).
import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { createServer } from 'node:http'
import { basename, join } from 'node:path'
import { fileURLToPath } from 'node:url'

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
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${server.address().port}`, token: '' })}\n`)
})
process.once('SIGTERM', () => {
  server.close()
  server.closeAllConnections()
  process.exit(0)
})
