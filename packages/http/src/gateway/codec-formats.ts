import { dagPreviewText, type FileService, type GatewayRoot } from '@pinfold/core'
import { errorBody } from '../responses.js'
import type { CodecFormat, Negotiated } from './negotiation.js'
import { applyRange, contentDisposition, GATEWAY_SECURITY_HEADERS, notModified } from './responses.js'

/** The IPLD data codecs whose blocks the gateway serves as they are (multicodec codes). */
const CODEC_OF: Readonly<Record<number, CodecFormat>> = {
  297: 'dag-json',
  113: 'dag-cbor',
  512: 'json',
  81: 'cbor',
}
const RAW_CODE = 0x55

const CONTENT_TYPE: Readonly<Record<CodecFormat, string>> = {
  'dag-json': 'application/vnd.ipld.dag-json',
  'dag-cbor': 'application/vnd.ipld.dag-cbor',
  json: 'application/json',
  cbor: 'application/cbor',
}

/**
 * Which blocks each format may serve. No conversion between codecs (IPIP-524): dag-json is a
 * dag-json block's bytes, and the plain types are the same bytes under an interoperable type (a
 * raw block too, when asked for explicitly). Anything else is a 406.
 */
const SERVES: Readonly<Record<CodecFormat, readonly number[]>> = {
  'dag-json': [0x0129],
  'dag-cbor': [0x71],
  json: [0x0129, 0x0200, RAW_CODE],
  cbor: [0x71, 0x51, RAW_CODE],
}

/** Cache lifetime of the HTML preview: the page's markup may change with the gateway's version. */
const PREVIEW_CACHE = 'public, max-age=604800, stale-while-revalidate=2678400'

export interface CodecRequest {
  request: Request
  url: URL
  root: GatewayRoot
  path: string[]
  negotiated: Negotiated
  /** The headers every answer for this path carries (`X-Ipfs-Path`, Cache-Control, Vary…). */
  common: Record<string, string>
  filename: string | undefined
  service: FileService
}

/**
 * The answer for a dag-json, dag-cbor, json or cbor block (path gateway spec, IPIP-524), or
 * `undefined` when the request is for another kind of answer. Asked for by `?format=` or `Accept`,
 * the block at the path must be of that codec family (else 406). Not asked for, a block of such a
 * codec is served as itself under its own type (the plain one when `Accept` lists it), or as an
 * HTML preview for a browser (`Accept: text/html`).
 */
export async function codecFormatResponse(ask: CodecRequest): Promise<Response | undefined> {
  const { request, root, path, negotiated, service } = ask
  const asked = negotiated.format !== undefined && negotiated.format in CONTENT_TYPE
  if (!asked && (negotiated.format !== undefined || !(root.cid.code in CODEC_OF))) return undefined
  const block = await service.gateway.block(root, path, { signal: request.signal })
  const codec = CODEC_OF[block.cid.code]
  let served: CodecFormat
  if (asked) {
    served = negotiated.format as CodecFormat
    if (!SERVES[served].includes(block.cid.code)) {
      const what = codec ?? (block.cid.code === RAW_CODE ? 'raw' : 'dag-pb')
      return errorBody(`${block.cid} is a ${what} block, which is not served as ${served} (no codec conversions)`, 406)
    }
  } else {
    // a UnixFS node or raw block reached through a data block: the usual deserialized answer
    if (!codec) return undefined
    if (acceptsHtml(request)) return previewResponse(ask, block)
    served = plainAccepted(request, codec) ?? codec
  }
  return blockResponse(ask, block, served)
}

function blockResponse(
  { request, url, root, common, filename }: CodecRequest,
  block: Awaited<ReturnType<FileService['gateway']['block']>>,
  served: CodecFormat,
): Response {
  const extension = served.endsWith('json') ? 'json' : 'cbor'
  // JSON is text a browser may show; CBOR is bytes to save
  const download = url.searchParams.get('download') === 'true' || extension === 'cbor'
  const etag = `"${block.cid}.${served}"`
  const headers = new Headers({
    ...GATEWAY_SECURITY_HEADERS,
    ...common,
    'x-ipfs-roots': [root.requested, ...block.roots.slice(1)].join(','),
    etag,
    'content-type': CONTENT_TYPE[served],
    'content-disposition': contentDisposition(
      download ? 'attachment' : 'inline',
      filename ?? `${block.cid}.${extension}`,
    ),
    'accept-ranges': 'bytes',
  })
  if (notModified(request, etag)) return new Response(null, { status: 304, headers })
  const range = applyRange(request, headers, block.bytes.length)
  if (range instanceof Response) return range
  const body = block.bytes.subarray(range.offset, range.offset + range.length)
  return new Response(request.method === 'HEAD' ? null : body, { status: range.status, headers })
}

/** A human-readable page for the block: its data as indented dag-json. */
function previewResponse(
  { request, url, root, common }: CodecRequest,
  block: Awaited<ReturnType<FileService['gateway']['block']>>,
): Response {
  const etag = `"DagIndex-pinfold-1_CID-${block.cid}"`
  const headers = new Headers({
    ...GATEWAY_SECURITY_HEADERS,
    ...common,
    'x-ipfs-roots': [root.requested, ...block.roots.slice(1)].join(','),
    etag,
    'cache-control': PREVIEW_CACHE,
    'content-type': 'text/html; charset=utf-8',
  })
  if (notModified(request, etag)) return new Response(null, { status: 304, headers })
  if (request.method === 'HEAD') return new Response(null, { status: 200, headers })
  const codec = CODEC_OF[block.cid.code]!
  const text = dagPreviewText(block.cid, block.bytes) ?? '(this block does not decode)'
  const raw = `${url.pathname}?format=${codec}`
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(url.pathname)}</title></head><body><h1>${escapeHtml(block.cid.toString())} (${codec})</h1><p><a href="${escapeHtml(raw)}">${block.bytes.length} bytes as ${codec}</a></p><pre>${escapeHtml(text)}</pre></body></html>`
  return new Response(html, { status: 200, headers })
}

/** Whether `Accept` asks for HTML (a browser's navigation), at any non-zero weight. */
function acceptsHtml(request: Request): boolean {
  return listsType(request, 'text/html')
}

/** The plain JSON or CBOR type when `Accept` lists it for a block of that family. */
function plainAccepted(request: Request, codec: CodecFormat): CodecFormat | undefined {
  if (codec.endsWith('json') && listsType(request, 'application/json')) return 'json'
  if (codec.endsWith('cbor') && listsType(request, 'application/cbor')) return 'cbor'
  return undefined
}

function listsType(request: Request, type: string): boolean {
  return (request.headers.get('accept') ?? '')
    .split(',')
    .map((range) => range.split(';').map((part) => part.trim().toLowerCase()))
    .some(([name, ...params]) => name === type && !params.some((param) => /^q=0(\.0*)?$/.test(param)))
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}
