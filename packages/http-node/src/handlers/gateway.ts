import { createHash } from 'node:crypto'
import {
  type DagScope,
  type FileService,
  type GatewayRoot,
  type GatewayScope,
  invalid,
  PinfoldError,
} from '@pinfold/core'
import {
  contentDisposition,
  fileResponse,
  GATEWAY_SECURITY_HEADERS,
  IMMUTABLE,
  notModified,
  toStream,
} from '../gateway-responses.js'
import { errorBody } from '../responses.js'

const RAW = 'application/vnd.ipld.raw'
const CAR = 'application/vnd.ipld.car'

/** Cache lifetime of a response that a hot swap produced: the mapping can change at any time. */
const SWAPPED_CACHE = 'public, max-age=60'

export interface GatewayDispatchOptions {
  service: FileService
  /** Host (`name:port`) of the API itself; requests for other hosts may be custom domains. */
  apiHost: string
}

/**
 * The gateway's entry point, called by the fetch handler before the route table:
 * - a request whose `Host` is a registered custom domain is that tenant's gateway (only `active`
 *   domains serve; a pending domain is refused);
 * - `GET|HEAD /ipfs/{cid}[/path]` on the API's host is the shared public gateway.
 * Returns `undefined` for every other request.
 */
export async function dispatchGateway(
  request: Request,
  url: URL,
  apiPathname: string | undefined,
  options: GatewayDispatchOptions,
): Promise<Response | undefined> {
  const { service } = options
  let scope: GatewayScope | undefined
  let pathname = apiPathname
  if (url.host.toLowerCase() !== options.apiHost.toLowerCase()) {
    const routed = await service.domains.route(url.hostname)
    if (routed) {
      if (routed.status !== 'active') {
        throw new PinfoldError('FORBIDDEN', 'this domain is not verified yet (pending_ownership)')
      }
      scope = { kind: 'tenant', tenantId: routed.tenantId }
      pathname = url.pathname // a custom domain serves at its root, whatever the API's mount prefix
    }
  }
  if (pathname === undefined) return undefined
  const isIpfs = pathname === '/ipfs' || pathname.startsWith('/ipfs/')
  if (!scope && !isIpfs) return undefined
  if (!isIpfs) throw new PinfoldError('NOT_FOUND', 'a gateway serves /ipfs/{cid} paths only')
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return errorBody(`method ${request.method} not allowed on the gateway`, 405, { allow: 'GET, HEAD' })
  }
  return serveIpfs(request, url, pathname, scope ?? { kind: 'public' }, service)
}

async function serveIpfs(
  request: Request,
  url: URL,
  pathname: string,
  scope: GatewayScope,
  service: FileService,
): Promise<Response> {
  const rawSegments = pathname.split('/').slice(2) // ['', 'ipfs', cid, ...path]
  const cidText = rawSegments[0] ? decodeSegment(rawSegments[0]) : ''
  if (!cidText) throw invalid('a CID is required: /ipfs/{cid}')
  const path = rawSegments
    .slice(1)
    .filter((s) => s !== '')
    .map(decodeSegment)
  const trailingSlash = pathname.endsWith('/')
  const format = responseFormat(request, url)
  const root = await service.gateway.resolve(scope, cidText, { swaps: format === undefined, signal: request.signal })
  const requestedRoot = root.requested.toString()
  const common: Record<string, string> = {
    'x-ipfs-path': decodeURIComponentSafe(pathname),
    'x-ipfs-roots': requestedRoot,
    'cache-control': root.swapped ? SWAPPED_CACHE : IMMUTABLE,
  }
  if (format) common.vary = 'Accept'

  if (format === 'raw') {
    const block = await service.gateway.block(root, path, { signal: request.signal })
    const etag = `"${block.cid}.raw"`
    const headers = new Headers({
      ...GATEWAY_SECURITY_HEADERS,
      ...common,
      etag,
      'content-type': RAW,
      'content-disposition': `attachment; filename="${block.cid}.bin"`,
      'content-length': String(block.bytes.length),
    })
    if (notModified(request, etag)) return new Response(null, { status: 304, headers })
    return new Response(request.method === 'HEAD' ? null : block.bytes, { status: 200, headers })
  }

  if (format === 'car') return carResponse(request, url, root, path, common, service)

  const entry = await service.gateway.entry(root, path, { signal: request.signal })
  if (entry.type === 'directory') {
    if (!trailingSlash) {
      const location = `${url.pathname}/${url.search}`
      return new Response(null, { status: 301, headers: { ...GATEWAY_SECURITY_HEADERS, location } })
    }
    try {
      const index = await service.gateway.entry(root, [...path, 'index.html'], { signal: request.signal })
      if (index.type === 'file') {
        return fileResponse(request, index, {
          etag: `"${index.cid}"`,
          headers: common,
          contentType: 'text/html; charset=utf-8',
        })
      }
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'NOT_FOUND') throw error
    }
    return listingResponse(request, url, entry, common)
  }
  const filename = url.searchParams.get('filename') ?? undefined
  const download = url.searchParams.get('download') === 'true'
  const name = filename ?? path.at(-1)
  const disposition =
    filename || download
      ? contentDisposition(download ? 'attachment' : 'inline', name ?? entry.cid.toString())
      : undefined
  return fileResponse(request, entry, { etag: `"${entry.cid}"`, headers: common, name, disposition })
}

async function carResponse(
  request: Request,
  url: URL,
  root: GatewayRoot,
  path: string[],
  common: Record<string, string>,
  service: FileService,
): Promise<Response> {
  const q = url.searchParams
  const scopeParam = q.get('dag-scope') ?? 'all'
  if (scopeParam !== 'all' && scopeParam !== 'entity' && scopeParam !== 'block') {
    throw invalid('dag-scope must be block, entity or all')
  }
  const accept = request.headers.get('accept') ?? ''
  const version = q.get('car-version') ?? /application\/vnd\.ipld\.car[^,]*version=(\w+)/.exec(accept)?.[1]
  if (version !== undefined && version !== null && version !== '1') throw invalid('only CAR version 1 is supported')
  const entityBytes = parseEntityBytes(q.get('entity-bytes'))
  const car = await service.gateway.car(
    root,
    path,
    { scope: scopeParam as DagScope, entityBytes },
    { signal: request.signal },
  )
  const variant = `${car.scope}${car.range ? `:${car.range.from}-${car.range.to}` : ''}`
  const tag = createHash('sha256')
    .update(`${root.requested}|${car.terminal}|${variant}`)
    .digest('base64url')
    .slice(0, 16)
  const etag = `"${car.terminal}.car.${tag}"`
  const headers = new Headers({
    ...GATEWAY_SECURITY_HEADERS,
    ...common,
    etag,
    'content-type': `${CAR}; version=1; order=dfs; dups=n`,
    'content-disposition': `attachment; filename="${root.requested}.car"`,
    'accept-ranges': 'none',
    'x-ipfs-roots': [root.requested.toString(), car.terminal.toString()]
      .filter((v, i, a) => a.indexOf(v) === i)
      .join(','),
  })
  if (!q.has('format')) headers.set('content-location', `${url.pathname}?${withFormat(q, 'car')}`)
  if (notModified(request, etag) || request.method === 'HEAD') {
    await car.stream.return?.(undefined)
    return new Response(null, { status: notModified(request, etag) ? 304 : 200, headers })
  }
  return new Response(toStream(car.stream), { status: 200, headers })
}

async function listingResponse(
  request: Request,
  url: URL,
  entry: Extract<Awaited<ReturnType<FileService['gateway']['entry']>>, { type: 'directory' }>,
  common: Record<string, string>,
): Promise<Response> {
  const etag = `"DirIndex-pinfold-1_CID-${entry.cid}"`
  const headers = new Headers({
    ...GATEWAY_SECURITY_HEADERS,
    ...common,
    etag,
    'content-type': 'text/html; charset=utf-8',
  })
  if (notModified(request, etag)) return new Response(null, { status: 304, headers })
  if (request.method === 'HEAD') return new Response(null, { status: 200, headers })
  const rows: string[] = []
  for await (const item of entry.list({ signal: request.signal })) {
    const href = `${url.pathname}${encodeURIComponent(item.name)}`
    rows.push(
      `<tr><td><a href="${escapeHtml(href)}">${escapeHtml(item.name)}</a></td><td>${item.size}</td><td>${item.cid}</td></tr>`,
    )
  }
  const title = escapeHtml(decodeURIComponentSafe(url.pathname))
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body><h1>Index of ${title}</h1><table><tr><th>Name</th><th>Size</th><th>CID</th></tr>${rows.join('')}</table></body></html>`
  return new Response(html, { status: 200, headers })
}

/** `?format=` wins over `Accept`; `undefined` means a deserialized response. */
function responseFormat(request: Request, url: URL): 'raw' | 'car' | undefined {
  const format = url.searchParams.get('format')
  if (format !== null && format !== '') {
    if (format === 'raw' || format === 'car') return format
    throw invalid('format must be raw or car')
  }
  const accept = request.headers.get('accept') ?? ''
  if (accept.includes(RAW)) return 'raw'
  if (accept.includes(CAR)) return 'car'
  return undefined
}

/** `entity-bytes=from:to`: integers (negative from the end) and `*` for the last byte. */
function parseEntityBytes(value: string | null): { from: number; to: number | '*' } | undefined {
  if (value === null) return undefined
  const match = /^(-?\d+):(-?\d+|\*)$/.exec(value)
  if (!match) throw invalid('entity-bytes must be from:to')
  const from = Number(match[1])
  const to = match[2] === '*' ? '*' : Number(match[2])
  if (!Number.isSafeInteger(from) || (to !== '*' && !Number.isSafeInteger(to)))
    throw invalid('entity-bytes out of range')
  if (to !== '*' && from >= 0 && to >= 0 && to < from) throw invalid('entity-bytes must have from <= to')
  return { from, to }
}

function withFormat(params: URLSearchParams, format: string): string {
  const copy = new URLSearchParams(params)
  copy.set('format', format)
  return copy.toString()
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    throw invalid('malformed percent-encoding in the path')
  }
}

function decodeURIComponentSafe(value: string): string {
  try {
    return decodeURIComponent(value)
  } catch {
    return value
  }
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}
