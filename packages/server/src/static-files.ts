import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { extname, join, sep } from 'node:path'
import { Readable } from 'node:stream'

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  // the console's PDF.js worker keeps its package's extension
  '.mjs': 'text/javascript; charset=utf-8',
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

export interface StaticFilesOptions {
  /** `Cache-Control` of a file, by its path below the root; default `no-cache`. */
  cacheControl?: ((relative: string) => string) | undefined
  /** Headers of HTML files (a content security policy, say). */
  pageHeaders?: Record<string, string> | undefined
  /** What an empty path serves; default `index.html`. */
  index?: string | undefined
  /** Files a build makes: when one is missing, a 503 with this message rather than a 404. */
  built?: { files: readonly string[]; message: string } | undefined
}

/** Answers a GET or HEAD for `relative` (a URL path below the mount point, undecoded). */
export type StaticFiles = (request: Request, relative: string) => Promise<Response>

/**
 * Serves the files under `root` (a build's output): content types by extension, a weak ETag so a
 * `no-cache` file is revalidated rather than sent again, and 404 for any path that could leave
 * `root` or reach a hidden file. Bodies stream from disk.
 */
export function staticFiles(root: string, options: StaticFilesOptions = {}): StaticFiles {
  const base = join(root, sep)
  const { cacheControl = () => 'no-cache', pageHeaders = {}, index = 'index.html', built } = options
  return async (request, relative) => {
    const name = relative === '' ? index : relative
    const file = resolveInside(base, name)
    if (!file) return jsonResponse(404, { error: 'no such file' })
    const found = await stat(file).catch(() => undefined)
    if (!found?.isFile()) {
      if (built?.files.includes(name)) return jsonResponse(503, { error: built.message })
      return jsonResponse(404, { error: 'no such file' })
    }
    const etag = `W/"${found.size.toString(36)}-${Math.trunc(found.mtimeMs).toString(36)}"`
    const headers: Record<string, string> = {
      'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
      'cache-control': cacheControl(name),
      etag,
      'x-content-type-options': 'nosniff',
      ...(extname(file) === '.html' ? pageHeaders : {}),
    }
    if (matchesEtag(request.headers.get('if-none-match'), etag)) return new Response(null, { status: 304, headers })
    headers['content-length'] = String(found.size)
    if (request.method === 'HEAD') return new Response(null, { headers })
    const body = Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>
    return new Response(body, { headers })
  }
}

function matchesEtag(ifNoneMatch: string | null, etag: string): boolean {
  if (ifNoneMatch === null) return false
  return ifNoneMatch.trim() === '*' || ifNoneMatch.split(',').some((tag) => tag.trim() === etag)
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

export function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-cache', vary: 'Accept' },
  })
}
