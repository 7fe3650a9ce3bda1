import { type DagScope, type FileService, type GatewayRoot, type GatewayScope, invalid } from '@pinfold/core'
import { base64url } from '../bytes.js'
import { rememberBody } from '../response-body.js'
import { errorBody } from '../responses.js'
import { codecFormatResponse } from './codec-formats.js'
import { type ListingPlace, listingResponse } from './directory-listing.js'
import { checkedCid, decodeSegment } from './gateway-path.js'
import type { ImageVariants } from './image-variants.js'
import { allowKeeping } from './kept-answers.js'
import { carContentType, carDups, type Negotiated, negotiateFormat, RAW } from './negotiation.js'
import { protocolHandlerRedirect } from './protocol-handler.js'
import {
  applyRange,
  contentDisposition,
  fileResponse,
  GATEWAY_SECURITY_HEADERS,
  IMMUTABLE,
  notModified,
  readAheadResponse,
} from './responses.js'
import { siteFallback } from './site-redirects.js'
import { tarResponse } from './tar-response.js'
import { attributeUsage } from './usage.js'

/** Cache lifetime of a response that a hot swap produced: the mapping can change at any time. */
const SWAPPED_CACHE = 'public, max-age=60'

/**
 * Path segments after the CID. A path is resolved once per request, one block per segment; the
 * bound keeps that walk (and the `X-Ipfs-Roots` header listing each segment's CID) small.
 */
const MAX_PATH_SEGMENTS = 64

/**
 * Who a gateway answer is for. `isolated`: each CID has an origin of its own (the subdomain
 * gateway), so its HTML and scripts may run unsandboxed and register service workers; on a
 * shared origin (the path gateway, a tenant's domain) every CID's content would share cookies,
 * storage and workers, so it stays sandboxed.
 */
export interface GatewayOrigin {
  scope: GatewayScope
  isolated: boolean
  /** Where `/ipfs/` content paths live for links in listings: `''` (this origin) or `//{host}`. */
  contentOrigin?: string
  /** A DNSLink host serving its site at its root (listings link within it). */
  dnslinkHost?: string | undefined
  /** Transforms images (`img-*`): a tenant's own gateway only (see `routes.ts`). */
  images?: ImageVariants | undefined
  /**
   * The website this origin serves at its root, as a gateway path (`/ipfs/{cid}[/sub]`): its
   * `_redirects` rules answer the paths it does not hold (`site-redirects.ts`). Only for origins
   * of one site each (the subdomain gateway, a DNSLink host).
   */
  site?: string | undefined
}

export const PUBLIC: GatewayScope = { kind: 'public' }

/**
 * `GET|HEAD /ipfs/{cid}[/path]` (`pathname`, as requested) for `origin`: a raw block, a CAR, a
 * directory, a file or an image variant, as the request negotiates.
 */
export async function serveGateway(
  request: Request,
  url: URL,
  pathname: string,
  origin: GatewayOrigin,
  service: FileService,
): Promise<Response> {
  if (!origin.isolated && request.headers.get('service-worker') === 'script') {
    throw invalid('service workers cannot be registered on a shared gateway origin (use the subdomain gateway)')
  }
  const { site } = origin
  const response = await serveIpfs(request, url, pathname, origin, service).catch((missing: unknown) => {
    if (!site) throw missing
    const serve = (asked: Request, path: string) => serveIpfs(asked, url, path, origin, service)
    return siteFallback(missing, { request, url, pathname, site, scope: origin.scope, service, serve })
  })
  if (origin.isolated) response.headers.delete('content-security-policy')
  return response
}

async function serveIpfs(
  request: Request,
  url: URL,
  pathname: string,
  { scope, images, contentOrigin = '', dnslinkHost }: GatewayOrigin,
  service: FileService,
): Promise<Response> {
  const rawSegments = pathname.split('/').slice(2) // ['', 'ipfs', cid, ...path]
  const uri = url.searchParams.get('uri')
  if (!rawSegments[0] && uri !== null) return protocolHandlerRedirect(uri)
  if (!rawSegments[0]) throw invalid('a CID is required: /ipfs/{cid}')
  const cidText = decodeSegment(rawSegments[0])
  const path = rawSegments
    .slice(1)
    .filter((s) => s !== '')
    .map(decodeSegment)
  if (path.length > MAX_PATH_SEGMENTS) throw invalid(`a gateway path has at most ${MAX_PATH_SEGMENTS} segments`)
  const negotiated = negotiateFormat(request.headers.get('accept'), url.searchParams.get('format'))
  if (negotiated === 'not-acceptable') {
    return errorBody(
      'none of the types in Accept can be served: ask for raw, car (version 1), tar, dag-json, dag-cbor or a file',
      406,
    )
  }
  const { format } = negotiated
  // a first segment that is no CID is worded as path gateways word it (`invalid path "/ipfs/…"`)
  checkedCid(pathname, rawSegments[0])
  const root = await resolveRoot(request, scope, cidText, format === undefined, service)
  if (root instanceof Response) return root
  const place = { cid: cidText, path, contentOrigin, dnslinkHost }
  const response = await serveRoot(request, url, pathname, scope, root, place, negotiated, images, service)
  // public content is the same for everyone: its answer may be kept until the resolution lapses
  // (`kept-answers.ts`); a tenant's gateway (swaps, images, usage) always answers in full
  if (scope.kind === 'public' && root.until !== undefined && !root.swapped) allowKeeping(request, root.until)
  // a tenant's gateway counts what it served of content it holds, under the CID asked for: never an
  // answer that resolved nothing (a 405, a 406, a CID not held) nor an identity CID, which anyone
  // can make up by the million and which holds nothing of the tenant's
  if (scope.kind !== 'tenant' || root.dag === null) return response
  return attributeUsage(response, { tenantId: scope.tenantId, cid: root.requested.toString() })
}

/** The answer for a resolved root: a raw block, a CAR, a directory, a file or an image variant. */
async function serveRoot(
  request: Request,
  url: URL,
  pathname: string,
  scope: GatewayScope,
  root: GatewayRoot,
  place: ListingPlace,
  negotiated: Negotiated,
  images: ImageVariants | undefined,
  service: FileService,
): Promise<Response> {
  const path = [...place.path]
  const { format } = negotiated
  const trailingSlash = pathname.endsWith('/')
  const common: Record<string, string> = {
    // as requested, percent-encoded: a decoded name may hold characters no header can carry
    'x-ipfs-path': pathname,
    'cache-control': root.swapped ? SWAPPED_CACHE : IMMUTABLE,
    // the same URL is a file, a block or a CAR depending on Accept: caches must key on it
    vary: 'Accept',
  }
  if (negotiated.fromAccept) common['content-location'] = `${url.pathname}?${withFormat(url.searchParams, format!)}`
  const filename = url.searchParams.get('filename') || undefined

  if (format === 'raw') {
    const block = await service.gateway.block(root, path, { signal: request.signal })
    const etag = `"${block.cid}.raw"`
    const headers = new Headers({
      ...GATEWAY_SECURITY_HEADERS,
      ...common,
      'x-ipfs-roots': ipfsRoots(root, block.roots),
      etag,
      'content-type': RAW,
      'content-disposition': attachment(filename, `${block.cid}.bin`),
      'accept-ranges': 'bytes',
    })
    if (notModified(request, etag)) return new Response(null, { status: 304, headers })
    const range = applyRange(request, headers, block.bytes.length)
    if (range instanceof Response) return range
    if (request.method === 'HEAD') return new Response(null, { status: range.status, headers })
    const body = block.bytes.subarray(range.offset, range.offset + range.length)
    // held whole already: written in one piece (and keepable), never streamed
    return rememberBody(new Response(body, { status: range.status, headers }), body)
  }

  if (format === 'car') return carResponse(request, url, root, path, common, filename, negotiated, service)

  if (format === 'tar') return tarResponse(request, root, path, common, filename, service)
  const codecAnswer = await codecFormatResponse({ request, url, root, path, negotiated, common, filename, service })
  if (codecAnswer) return codecAnswer

  const entry = await service.gateway.entry(root, path, { signal: request.signal })
  common['x-ipfs-roots'] = ipfsRoots(root, entry.roots)
  if (entry.type === 'directory') {
    if (!trailingSlash) {
      const location = `${url.pathname}/${url.search}`
      return new Response(null, { status: 301, headers: { ...GATEWAY_SECURITY_HEADERS, location } })
    }
    try {
      const index = await service.gateway.entry(root, [...path, 'index.html'], { signal: request.signal })
      if (index.type === 'file') {
        // the directory's CID, as the URL names the directory: its index.html changes with it
        return fileResponse(request, index, {
          etag: `"${entry.cid}"`,
          headers: common,
          contentType: 'text/html; charset=utf-8',
        })
      }
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'NOT_FOUND') throw error
    }
    return listingResponse(request, url, entry, place, common)
  }
  const download = url.searchParams.get('download') === 'true'
  const name = filename ?? path.at(-1)
  const disposition =
    filename || download
      ? contentDisposition(download ? 'attachment' : 'inline', name ?? entry.cid.toString())
      : undefined
  // formats other than the file (raw, CAR) carry the CID's own verifiable bytes, never a variant
  const variant = await images?.respond(request, url, {
    cid: entry.cid.toString(),
    entry,
    name,
    headers: common,
    disposition,
    tenantId: scope.kind === 'tenant' ? scope.tenantId : undefined,
  })
  if (variant) return variant
  return fileResponse(request, entry, {
    etag: `"${entry.cid}"`,
    headers: common,
    name,
    disposition,
    // as Kubo types it: a symlink's bytes are a path, not the content of the file it names
    contentType: entry.symlink ? 'inode/symlink' : undefined,
  })
}

/**
 * The root the request names. With `Cache-Control: only-if-cached`, content this gateway does not
 * hold is a 412 rather than a 404 (path gateway spec): the client asked for local data only.
 */
async function resolveRoot(
  request: Request,
  scope: GatewayScope,
  cidText: string,
  swaps: boolean,
  service: FileService,
): Promise<GatewayRoot | Response> {
  try {
    return await service.gateway.resolve(scope, cidText, { swaps, signal: request.signal })
  } catch (error) {
    const onlyIfCached = /(^|,)\s*only-if-cached\s*(,|$)/i.test(request.headers.get('cache-control') ?? '')
    if (onlyIfCached && (error as { code?: unknown }).code === 'NOT_FOUND') {
      return errorBody('not held by this gateway (only-if-cached)', 412)
    }
    throw error
  }
}

/** `X-Ipfs-Roots`: the requested CID, then the CID each path segment resolved to (core's walk). */
function ipfsRoots(root: GatewayRoot, roots: readonly GatewayRoot['cid'][]): string {
  return [root.requested, ...roots.slice(1)].join(',')
}

async function carResponse(
  request: Request,
  url: URL,
  root: GatewayRoot,
  path: string[],
  common: Record<string, string>,
  filename: string | undefined,
  negotiated: Negotiated,
  service: FileService,
): Promise<Response> {
  const q = url.searchParams
  const scopeParam = q.get('dag-scope') ?? 'all'
  if (scopeParam !== 'all' && scopeParam !== 'entity' && scopeParam !== 'block') {
    throw invalid('dag-scope must be block, entity or all')
  }
  const dups = carDups(q, negotiated)
  const entityBytes = parseEntityBytes(q.get('entity-bytes'))
  const car = await service.gateway.car(root, path, {
    scope: scopeParam as DagScope,
    entityBytes,
    dups,
    signal: request.signal,
  })
  const variant = `${car.scope}${car.range ? `:${car.range.from}-${car.range.to}` : ''}${dups ? ':dups' : ''}`
  // the first 16 base64url characters of a SHA-256 (12 bytes): the same tag as ever, by Web Crypto
  const digest = await crypto.subtle.digest(
    'SHA-256',
    new TextEncoder().encode(`${root.requested}|${car.terminal}|${variant}`),
  )
  const tag = base64url(new Uint8Array(digest, 0, 12))
  const etag = `"${car.terminal}.car.${tag}"`
  const headers = new Headers({
    ...GATEWAY_SECURITY_HEADERS,
    ...common,
    etag,
    'content-type': carContentType(dups),
    'content-disposition': attachment(filename, `${root.requested}.car`),
    'accept-ranges': 'none',
  })
  headers.set('x-ipfs-roots', ipfsRoots(root, car.roots))
  const bodyless = notModified(request, etag) || request.method === 'HEAD'
  if (bodyless) {
    await car.stream.return(undefined)
    return new Response(null, { status: notModified(request, etag) ? 304 : 200, headers })
  }
  return readAheadResponse(car.stream, { status: 200, headers })
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

/** Raw and CAR bytes are never rendered: always an attachment, named by `?filename=` when given. */
function attachment(filename: string | undefined, fallback: string): string {
  return filename ? contentDisposition('attachment', filename) : `attachment; filename="${fallback}"`
}

function withFormat(params: URLSearchParams, format: string): string {
  const copy = new URLSearchParams(params)
  copy.set('format', format)
  return copy.toString()
}
