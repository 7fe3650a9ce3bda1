import type { IncomingMessage, ServerResponse } from 'node:http'
import type { TLSSocket } from 'node:tls'
import {
  type FetchHandler,
  type KeptAnswers,
  keptAnswerKey,
  knownBody,
  rememberUrl,
  setClientAddress,
  setKeptAnswerKey,
} from '@pinfold/http'
import { isPinfoldError, optionChecks, PinfoldError } from '@pinfold/interface'
import { checkedHost } from './host-header.js'
import { NodeRequest } from './node-request.js'
import { requestBody } from './request-body.js'

export interface NodeHandlerOptions {
  /**
   * How many reverse proxies you run in front of this server (`true` = 1; default none). Then the
   * scheme and host come from `X-Forwarded-Proto`/`X-Forwarded-Host`, and the client's address
   * (per-address rate limits) is the `X-Forwarded-For` entry the outermost of those proxies
   * appended: entries further left are whatever the client sent. Only when the server's port is
   * reachable through those proxies alone (`HOST=127.0.0.1`), or anyone can claim any address.
   */
  trustProxy?: boolean | number | undefined
  /**
   * A request body that sends no byte for this long while the server waits for it is cut with a
   * 408 and leaves nothing behind; a body that keeps moving is never cut. 0 disables. Default 60 s.
   * (Node's own `requestTimeout` caps a whole request, long uploads included: set it to 0.)
   */
  bodyIdleTimeoutMs?: number | undefined
  /**
   * The handler's answer cache (`keptAnswersOf(handler)` from `@pinfold/http`): a request whose
   * answer it holds is answered straight onto the response, without building a Request.
   */
  keptAnswers?: KeptAnswers | undefined
}

export const DEFAULT_BODY_IDLE_TIMEOUT_MS = 60_000

export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void

/**
 * Bridges node:http onto the fetch handler without patching any global: the request body streams
 * in only as fast as the handler reads it, a client that disconnects aborts the request's signal,
 * and the response body is written with backpressure.
 */
export function createNodeHandler(handler: FetchHandler, options: NodeHandlerOptions = {}): NodeHandler {
  const check = optionChecks('@pinfold/http-node', 'createNodeHandler')
  check.require('handler', typeof handler === 'function', 'must be a fetch handler (createFetchHandler)')
  const idleTimeoutMs = check.nonNegativeInteger(
    'bodyIdleTimeoutMs',
    options.bodyIdleTimeoutMs ?? DEFAULT_BODY_IDLE_TIMEOUT_MS,
  )
  const proxies =
    options.trustProxy === true ? 1 : check.nonNegativeInteger('trustProxy', Number(options.trustProxy ?? 0))
  const kept = options.keptAnswers
  return (req, res) => {
    const method = req.method ?? 'GET'
    const key = kept && answerKeyOf(req, method, proxies > 0)
    if (key !== undefined) {
      const answer = kept!.answer(key, {
        requestId: joinedHeader(req.headers['x-request-id']),
        address: clientAddressOf(req, proxies),
      })
      if (answer) {
        res.writeHead(answer.status, answer.headers)
        res.end(answer.body)
        return
      }
    }
    const controller = new AbortController()
    res.once('close', () => {
      if (!res.writableFinished) controller.abort(new PinfoldError('ABORTED', 'the client closed the connection'))
    })
    const body = method === 'GET' || method === 'HEAD' ? undefined : requestBody(req, { idleTimeoutMs })
    // A body the handler did not read (an early 4xx) is drained and discarded, so the client can
    // read the answer instead of seeing its upload stall on a connection nobody reads. A stalled
    // body is not waited for: its connection is closed once the answer is out.
    res.once('finish', () => {
      body?.detach()
      if (req.complete) return
      if (body?.stalled) req.socket.destroy()
      else drainWithin(req, idleTimeoutMs)
    })

    let request: Request
    try {
      request = toRequest(req, method, body?.stream, controller.signal, proxies > 0)
      setClientAddress(request, clientAddressOf(req, proxies))
      if (key !== undefined) setKeptAnswerKey(request, key)
    } catch (error) {
      const message = isPinfoldError(error) ? error.message : 'malformed request line or headers'
      res.writeHead(400, { 'content-type': 'application/json; charset=utf-8', connection: 'close' })
      res.end(JSON.stringify({ error: message }))
      return
    }
    handler(request)
      .then((response) => writeResponse(response, res))
      .catch(() => {
        // a body that fails after its headers went out (a blob read failing mid-download) cannot
        // be finished: cut the connection so the client sees the truncation at once instead of
        // waiting for bytes that will never come
        if (res.headersSent) return void res.destroy()
        res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' })
        res.end(JSON.stringify({ error: 'internal server error' }))
      })
  }
}

/**
 * Reads and discards the rest of a body. Nothing pauses it now, so the socket's own inactivity
 * timer measures the client alone: one that stops sending is cut rather than waited on forever.
 */
function drainWithin(req: IncomingMessage, idleTimeoutMs: number): void {
  if (idleTimeoutMs > 0) {
    const cut = () => req.socket.destroy()
    req.socket.setTimeout(idleTimeoutMs)
    req.socket.once('timeout', cut)
    req.once('end', () => {
      req.socket.setTimeout(0)
      req.socket.off('timeout', cut)
    })
  }
  req.resume()
}

function toRequest(
  req: IncomingMessage,
  method: string,
  body: ReadableStream<Uint8Array> | undefined,
  signal: AbortSignal,
  behindProxy: boolean,
): Request {
  const forwardedProto = behindProxy ? firstValue(req.headers['x-forwarded-proto']) : undefined
  const forwardedHost = behindProxy ? firstValue(req.headers['x-forwarded-host']) : undefined
  const protocol = forwardedProto ?? ((req.socket as TLSSocket).encrypted ? 'https' : 'http')
  const host = checkedHost(forwardedHost ?? req.headers.host ?? 'localhost')
  // Built here rather than on first use, so a malformed header value is the 400 below, not a 500.
  const headers = new Headers()
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!)
  // Express and Connect strip a mount path from `req.url` but keep the full one in `originalUrl`;
  // the fetch handler's `basePath` expects the full path, as a plain node:http server passes it.
  const target = (req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url ?? '/'
  // the route is the request line's path: an absolute-form target (`GET http://other/x`) keeps
  // only its path, and the authority comes from the checked Host alone
  const path = target.startsWith('/') ? target : pathOf(target)
  const url = new URL(`${protocol}://${host}${path}`)
  const request = new NodeRequest({ method, url, headers, signal, body: body ?? null }) as unknown as Request
  rememberUrl(request, url)
  return request
}

/** The answer cache's key of a request, from the same parts `toRequest` builds the Request from. */
function answerKeyOf(req: IncomingMessage, method: string, behindProxy: boolean): string | undefined {
  const target = (req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url ?? '/'
  const scheme = (req.socket as TLSSocket).encrypted ? 'https' : 'http'
  return keptAnswerKey(method, scheme, target, req.rawHeaders, behindProxy)
}

/** A header as `Headers.get` reads it: several values joined by `, `. */
function joinedHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value
}

/** The path and query of an absolute-form request target; anything else is malformed. */
function pathOf(target: string): string {
  const parsed = URL.canParse(target) ? new URL(target) : undefined
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    throw new PinfoldError('INVALID_INPUT', 'malformed request target')
  }
  return `${parsed.pathname}${parsed.search}`
}

async function writeResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {}
  for (const [name, value] of response.headers) if (name !== 'set-cookie') headers[name] = value
  const cookies = response.headers.getSetCookie()
  if (cookies.length > 0) headers['set-cookie'] = cookies
  const body = knownBody(response)
  if (body !== undefined) {
    res.writeHead(response.status, headers)
    res.end(body)
    return
  }
  res.writeHead(response.status, headers)
  if (!response.body) {
    res.end()
    return
  }
  const reader = response.body.getReader()
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      if (!res.write(value) && !(await drained(res))) return
    }
    res.end()
  } finally {
    // stops the producer (e.g. a blob read) when the client went away mid-download
    await reader.cancel().catch(() => {})
  }
}

/** Resolves true on 'drain', false if the connection closed first. */
function drained(res: ServerResponse): Promise<boolean> {
  if (res.destroyed) return Promise.resolve(false)
  return new Promise((resolve) => {
    const onDrain = () => done(true)
    const onClose = () => done(false)
    const done = (value: boolean) => {
      res.off('drain', onDrain)
      res.off('close', onClose)
      resolve(value)
    }
    res.on('drain', onDrain)
    res.on('close', onClose)
  })
}

/**
 * The address `proxies` hops out: each trusted proxy appended the address it was reached from to
 * `X-Forwarded-For`, so they are read from the right (as Express's `trust proxy` does). A request
 * that came through fewer proxies gets the furthest address it has.
 */
function clientAddressOf(req: IncomingMessage, proxies: number): string | undefined {
  if (proxies === 0) return req.socket.remoteAddress
  const header = req.headers['x-forwarded-for']
  const forwarded = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
  const chain = [req.socket.remoteAddress, ...forwarded.reverse()]
  return chain[Math.min(proxies, chain.length - 1)]
}

function firstValue(value: string | string[] | undefined): string | undefined {
  const first = Array.isArray(value) ? value[0] : value
  return first?.split(',')[0]?.trim() || undefined
}
