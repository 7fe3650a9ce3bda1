const urls = new WeakMap<Request, URL>()

/**
 * Records the URL a bridge already parsed for a request it built (`@pinfold/http-node` does, for
 * every request), so the handler reuses that parse instead of parsing `request.url` again.
 */
export function rememberUrl(request: Request, url: URL): void {
  urls.set(request, url)
}

/** The request's URL, parsed: a bridge's own parse when it recorded one. */
export function parsedUrl(request: Request): URL {
  return urls.get(request) ?? new URL(request.url)
}

/** The path under the API's mount prefix (`basePath`), or `undefined` for a path outside it. */
export function stripBasePath(pathname: string, basePath: string): string | undefined {
  if (basePath === '') return pathname
  if (pathname === basePath) return '/'
  return pathname.startsWith(`${basePath}/`) ? pathname.slice(basePath.length) : undefined
}
