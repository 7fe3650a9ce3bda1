import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A trustless gateway in front of `origin` that answers each block request `delayMs` late, so a
 * pin by CID fetching from it is caught mid-DAG by a kill more often than not.
 */
export async function startSlowGateway(origin: string, delayMs: number) {
  const server = createServer((req, res) => {
    setTimeout(() => {
      fetch(`${origin}${req.url ?? '/'}`, { headers: { accept: req.headers.accept ?? 'application/vnd.ipld.raw' } })
        .then(async (upstream) => {
          res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'text/plain' })
          res.end(Buffer.from(await upstream.arrayBuffer()))
        })
        .catch(() => res.destroy())
    }, delayMs)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
