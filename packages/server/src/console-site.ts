import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { extname, join, sep } from 'node:path'
import { Readable } from 'node:stream'
import type { FetchHandler } from '@pinfold/http'

/** Where the console lives, below the API's base path. */
const CONSOLE_PATH = '/console'

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webmanifest': 'application/manifest+json',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
}

// Vite names every file under assets/ by a hash of its content: a new build is a new name.
const IMMUTABLE = 'public, max-age=31536000, immutable'

// The app is its own files only: no inline script, no CDN. Downloads and tus uploads may go to the
// server's public URL, which a proxy can put on another origin, so connections are not pinned.
const PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src *; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
}

export interface ConsoleSiteOptions {
  /** The built console (index.html, assets/). */
  assetsDir: string
  /** The API's mount prefix, as given to `createFetchHandler`. */
  basePath?: string | undefined
  /** The host name of the server's public URL: where one is set, other hosts (gateway domains) get no console. */
  apiHostname?: string | undefined
}

/**
 * Serves the web console at `{basePath}/console/` in front of the API: GET and HEAD of its files,
 * and `/` answered by content negotiation (a browser is redirected to the console, an API client
 * gets a JSON index). Everything else goes to `api` untouched.
 */
export function withConsole(
  api: FetchHandler,
  { assetsDir, basePath = '', apiHostname }: ConsoleSiteOptions,
): FetchHandler {
  const root = join(assetsDir, sep)
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return api(request)
    const { pathname, hostname } = new URL(request.url)
    if (!isConsoleHost(hostname.toLowerCase(), apiHostname) || !pathname.startsWith(basePath)) return api(request)
    const path = pathname.slice(basePath.length)
    if (path === '/' || path === '') return index(request, basePath)
    if (path === CONSOLE_PATH) return redirect(`${basePath}${CONSOLE_PATH}/`, 308)
    if (!path.startsWith(`${CONSOLE_PATH}/`)) return api(request)
    return serveFile(request, root, path.slice(CONSOLE_PATH.length + 1))
  }
}

/**
 * A subdomain gateway's `{cid}.ipfs.{host}/` and `/console/…` are paths of that content, and a
 * custom gateway domain serves content only: the console answers on the API's own host.
 */
function isConsoleHost(hostname: string, apiHostname: string | undefined): boolean {
  if (hostname.includes('.ipfs.') || hostname.includes('.ipns.')) return false
  return apiHostname === undefined || hostname === apiHostname.toLowerCase()
}

/** `/`: the console for a browser (it asks for HTML), a JSON map of the server for anything else. */
function index(request: Request, basePath: string): Response {
  const accept = request.headers.get('accept') ?? ''
  if (/\btext\/html\b/i.test(accept)) return redirect(`${basePath}${CONSOLE_PATH}/`, 302, { vary: 'Accept' })
  return jsonResponse(200, {
    service: 'pinfold',
    console: `${basePath}${CONSOLE_PATH}/`,
    docs: `${basePath}/docs`,
    openapi: `${basePath}/openapi.json`,
  })
}

async function serveFile(request: Request, root: string, relative: string): Promise<Response> {
  const file = resolveInside(root, relative === '' ? 'index.html' : relative)
  if (!file) return jsonResponse(404, { error: 'no such file' })
  const found = await stat(file).catch(() => undefined)
  if (!found?.isFile()) {
    if (relative === '' || relative === 'index.html') {
      return jsonResponse(503, {
        error: 'the console is not built: run `pnpm build` (or `pnpm --filter @pinfold/console build`)',
      })
    }
    return jsonResponse(404, { error: 'no such file' })
  }
  const isPage = extname(file) === '.html'
  const headers: Record<string, string> = {
    'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
    'content-length': String(found.size),
    'cache-control': relative.startsWith('assets/') ? IMMUTABLE : 'no-cache',
    'x-content-type-options': 'nosniff',
    ...(isPage ? PAGE_HEADERS : {}),
  }
  if (request.method === 'HEAD') return new Response(null, { headers })
  const body = Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>
  return new Response(body, { headers })
}

/**
 * The file a URL path names inside `root`, or undefined for anything that could leave it or reach
 * a hidden file: `..` and `.` segments (also percent-encoded), backslashes, NUL, empty segments.
 */
function resolveInside(root: string, urlPath: string): string | undefined {
  let decoded: string
  try {
    decoded = decodeURIComponent(urlPath)
  } catch {
    return undefined
  }
  if (decoded.includes('\\') || decoded.includes('\0')) return undefined
  const segments = decoded.split('/')
  if (segments.some((segment) => segment === '' || segment.startsWith('.'))) return undefined
  const file = join(root, ...segments)
  return file.startsWith(root) ? file : undefined
}

function redirect(location: string, status: number, headers: Record<string, string> = {}): Response {
  return new Response(null, { status, headers: { location, 'cache-control': 'no-cache', ...headers } })
}

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-cache', vary: 'Accept' },
  })
}
