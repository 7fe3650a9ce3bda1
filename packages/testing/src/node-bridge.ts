import { createServer, request as httpRequest, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type FetchHandler, keptAnswersOf } from '@pinfold/http'
import { createNodeHandler } from '@pinfold/http-node'

export interface BridgeAnswer {
  status: number
  /** As node:http reads them: lower-case names, several values joined by `, `. */
  headers: Record<string, string>
  body: Buffer
}

export interface NodeBridge {
  /** A request with exactly these headers (node:http adds `Host` and `Connection` alone). */
  request(path: string, init?: { method?: string; headers?: Record<string, string> }): Promise<BridgeAnswer>
  /** How many requests reached the fetch handler (the others were answered by the answer cache). */
  readonly handled: number
  close(): Promise<void>
}

/**
 * `handler` served over a real node:http server by `createNodeHandler`, as `pinfold serve` serves
 * it: with the handler's answer cache (`keptAnswersOf`) unless `kept` is false.
 */
export async function listenOverNode(handler: FetchHandler, { kept = true } = {}): Promise<NodeBridge> {
  let handled = 0
  const counting: FetchHandler = (request) => {
    handled++
    return handler(request)
  }
  const server: Server = createServer(
    createNodeHandler(counting, { keptAnswers: kept ? keptAnswersOf(handler) : undefined }),
  )
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    get handled() {
      return handled
    },
    request(path, { method = 'GET', headers = {} } = {}) {
      return new Promise<BridgeAnswer>((resolve, reject) => {
        const req = httpRequest({ port, host: '127.0.0.1', path, method, headers }, (res) => {
          const chunks: Buffer[] = []
          res.on('data', (chunk: Buffer) => chunks.push(chunk))
          res.on('error', reject)
          res.on('end', () => {
            const answerHeaders: Record<string, string> = {}
            for (const [name, value] of Object.entries(res.headers)) {
              if (value !== undefined) answerHeaders[name] = Array.isArray(value) ? value.join(', ') : value
            }
            resolve({ status: res.statusCode ?? 0, headers: answerHeaders, body: Buffer.concat(chunks) })
          })
        })
        req.on('error', reject)
        req.end()
      })
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
