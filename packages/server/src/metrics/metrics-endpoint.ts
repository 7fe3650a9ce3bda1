import { createHash, timingSafeEqual } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { FetchHandler } from '@pinfold/http'
import { createNodeHandler } from '@pinfold/http-node'
import type { Registry } from 'prom-client'

/**
 * What `/metrics` answers with: a prom-client registry, or (in a worker of `--workers N`) the
 * cluster's metrics summed by the primary process.
 */
export type MetricsSource = Pick<Registry, 'metrics'> & { contentType: string }

/** Where `/metrics` is served, and who may read it. */
export interface MetricsEndpointOptions {
  registry: MetricsSource
  /** An operator's bearer token the scrape must carry; undefined: anyone who reaches the address. */
  token: string | undefined
}

function jsonResponse(body: { error: string }, status: number, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  })
}

const digest = (text: string) => createHash('sha256').update(text).digest()

/**
 * Whether `authorization` carries `token` as a bearer token. Both are hashed first, so the compare
 * takes the same time whatever the guess, its length included.
 */
export function bearerMatches(authorization: string | null, token: string): boolean {
  const given = authorization?.match(/^Bearer +(\S+)\s*$/i)?.[1] ?? ''
  return timingSafeEqual(digest(given), digest(token))
}

/** The answer to `GET /metrics`: the registry in the Prometheus text format, or 401 without the token. */
export async function metricsAnswer(request: Request, { registry, token }: MetricsEndpointOptions): Promise<Response> {
  if (token !== undefined && !bearerMatches(request.headers.get('authorization'), token)) {
    return jsonResponse({ error: 'metrics need the operator token (Authorization: Bearer …)' }, 401, {
      'www-authenticate': 'Bearer realm="metrics"',
    })
  }
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return jsonResponse({ error: `${request.method} /metrics is not supported: it answers GET` }, 405, {
      allow: 'GET, HEAD',
    })
  }
  const body = await registry.metrics()
  return new Response(request.method === 'HEAD' ? null : body, {
    headers: { 'content-type': registry.contentType, 'cache-control': 'no-store' },
  })
}

/** `{basePath}/metrics` answered in front of `handler` (which answers everything else). */
export function withMetricsRoute(
  handler: FetchHandler,
  options: MetricsEndpointOptions & { basePath?: string | undefined },
): FetchHandler {
  const path = `${options.basePath ?? ''}/metrics`
  // a substring test first, so the other requests pay no URL parse for it
  const isMetrics = (url: string) => url.includes(path) && new URL(url).pathname === path
  return (request) => (isMetrics(request.url) ? metricsAnswer(request, options) : handler(request))
}

export interface MetricsListener {
  url: string
  close(): Promise<void>
}

/** A listener of its own for `/metrics` (`PINFOLD_METRICS_LISTEN`), kept off the public address. */
export async function startMetricsListener(
  listen: { host: string; port: number },
  options: MetricsEndpointOptions,
): Promise<MetricsListener> {
  const handler: FetchHandler = async (request) =>
    new URL(request.url).pathname === '/metrics'
      ? metricsAnswer(request, options)
      : jsonResponse({ error: 'this address serves /metrics only' }, 404)
  const server: Server = createServer(createNodeHandler(handler))
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(listen.port, listen.host, () => resolve())
  })
  const { port } = server.address() as AddressInfo
  const host = listen.host.includes(':') ? `[${listen.host}]` : listen.host
  return {
    url: `http://${host}:${port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
