import type { ServerResponse } from 'node:http'
import type { NodeHandler } from './node-handler.js'

export interface DrainingHandler {
  handler: NodeHandler
  /** Requests being answered right now. */
  inFlight(): number
  /**
   * From now on refuse new requests (503, `Connection: close`) and close each connection once its
   * answer is out; resolves true when the requests in flight have finished, false on `timeoutMs`.
   */
  drain(timeoutMs: number): Promise<boolean>
}

/** Wraps a node:http handler so a shutdown can let requests in flight (uploads) finish. */
export function drainable(inner: NodeHandler): DrainingHandler {
  let draining = false
  let active = 0
  const waiters = new Set<() => void>()
  const responses = new Set<ServerResponse>()

  const handler: NodeHandler = (req, res) => {
    if (draining) {
      res.writeHead(503, { 'content-type': 'application/json; charset=utf-8', connection: 'close', 'retry-after': '5' })
      res.end(JSON.stringify({ error: 'the server is shutting down' }))
      return
    }
    active++
    responses.add(res)
    res.once('close', () => {
      active--
      responses.delete(res)
      if (active === 0) for (const wake of waiters) wake()
    })
    inner(req, res)
  }

  return {
    handler,
    inFlight: () => active,
    drain(timeoutMs) {
      draining = true
      // answers still to come tell keep-alive clients to reconnect (elsewhere) for their next request
      for (const res of responses) if (!res.headersSent) res.shouldKeepAlive = false
      if (active === 0) return Promise.resolve(true)
      return new Promise((resolve) => {
        const done = (finished: boolean) => {
          clearTimeout(timer)
          waiters.delete(wake)
          resolve(finished)
        }
        const wake = () => done(true)
        const timer = setTimeout(() => done(false), timeoutMs)
        waiters.add(wake)
      })
    },
  }
}
