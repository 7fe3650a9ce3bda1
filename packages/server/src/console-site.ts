import type { FetchHandler } from '@pinfold/http'
import { jsonResponse, staticFiles } from './static-files.js'

/** Where the console lives, below the API's base path. */
const CONSOLE_PATH = '/console'

/** Where the API reference viewer's files live: beside the `/docs` page, so it can name them relatively. */
const API_REFERENCE_PATH = '/docs/viewer'

/** The viewer's script as the `/docs` page names it: relative, so it holds under a base path or a proxy's prefix. */
export const API_REFERENCE_SCRIPT = `${API_REFERENCE_PATH.slice(1)}/standalone.js`

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
  /** The API reference viewer's files (`standalone.js`), served at `{basePath}/docs/viewer/`. */
  apiReferenceDir?: string | undefined
  /** The API's mount prefix, as given to `createFetchHandler`. */
  basePath?: string | undefined
  /** The host name of the server's public URL: where one is set, other hosts (gateway domains) get no console. */
  apiHostname?: string | undefined
}

const NOT_BUILT = 'the console is not built: run `pnpm build` (or `pnpm --filter @pinfold/console build`)'

/**
 * Serves the web console at `{basePath}/console/` in front of the API: GET and HEAD of its files,
 * and `/` answered by content negotiation (a browser is redirected to the console, an API client
 * gets a JSON index); and the API reference viewer's script at `{basePath}/docs/viewer/`, which
 * the API's `/docs` page loads. Everything else goes to `api` untouched.
 */
export function withConsole(
  api: FetchHandler,
  { assetsDir, apiReferenceDir, basePath = '', apiHostname }: ConsoleSiteOptions,
): FetchHandler {
  const consoleFiles = staticFiles(assetsDir, {
    cacheControl: (relative) => (relative.startsWith('assets/') ? IMMUTABLE : 'no-cache'),
    pageHeaders: PAGE_HEADERS,
    built: { files: ['index.html'], message: NOT_BUILT },
  })
  const viewerFiles =
    apiReferenceDir === undefined
      ? undefined
      : staticFiles(apiReferenceDir, { built: { files: ['standalone.js'], message: NOT_BUILT } })
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return api(request)
    const { pathname, hostname } = new URL(request.url)
    if (!isConsoleHost(hostname.toLowerCase(), apiHostname) || !pathname.startsWith(basePath)) return api(request)
    const path = pathname.slice(basePath.length)
    if (path === '/' || path === '') return index(request, basePath)
    if (path === CONSOLE_PATH) return redirect(`${basePath}${CONSOLE_PATH}/`, 308)
    if (viewerFiles && path.startsWith(`${API_REFERENCE_PATH}/`)) {
      return viewerFiles(request, path.slice(API_REFERENCE_PATH.length + 1))
    }
    if (!path.startsWith(`${CONSOLE_PATH}/`)) return api(request)
    return consoleFiles(request, path.slice(CONSOLE_PATH.length + 1))
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

function redirect(location: string, status: number, headers: Record<string, string> = {}): Response {
  return new Response(null, { status, headers: { location, 'cache-control': 'no-cache', ...headers } })
}
