import { invalid } from '@pinfold/interface'

/**
 * A website's `_redirects` file (IPIP-002, specs.ipfs.tech/http-gateways/web-redirects-file):
 * `from to [status]` per line, evaluated in order for paths the site does not hold.
 */

/** The spec's limit: larger files are an error, not truncated. */
export const MAX_REDIRECTS_FILE_BYTES = 64 * 1024

/**
 * Pinfold's limit on rules (the spec sets none; 64 KiB holds ten thousand short ones): every
 * request for a missing path walks them, so the walk stays small.
 */
export const MAX_REDIRECT_RULES = 1000

/** 200 rewrites, 3xx redirects, 404/410/451 serve `to` with that status (a custom error page). */
const STATUSES = new Set([200, 301, 302, 303, 307, 308, 404, 410, 451])

export interface RedirectRule {
  /** `from`'s path segments: literals, `:name` placeholders, and at most a trailing `*`. */
  from: string[]
  /** A path on the site (`/…`) or an absolute `http(s)` URL, with `:name` and `:splat` to fill in. */
  to: string
  status: number
}

/** What a request path matched: where to send it, placeholders filled in, and how. */
export interface RedirectMatch {
  to: string
  status: number
}

/**
 * Parses a `_redirects` file. Any line that is not a valid rule makes the whole file invalid
 * (`INVALID_INPUT` naming the line): the spec answers a broken file with an error rather than
 * evaluating part of it. Blank lines and `#` comments are skipped; lines end in `\n` or `\r\n`.
 */
export function parseRedirectsFile(text: string): RedirectRule[] {
  if (new TextEncoder().encode(text).length > MAX_REDIRECTS_FILE_BYTES) {
    throw invalid(`redirects file size cannot exceed ${MAX_REDIRECTS_FILE_BYTES} bytes`)
  }
  const rules: RedirectRule[] = []
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim()
    if (line === '' || line.startsWith('#')) continue
    if (rules.length === MAX_REDIRECT_RULES) {
      throw invalid(`a redirects file holds at most ${MAX_REDIRECT_RULES} rules`)
    }
    rules.push(parseRule(line, i + 1))
  }
  return rules
}

function parseRule(line: string, number: number): RedirectRule {
  const fail = (why: string) => invalid(`line ${number}: ${why}`)
  const fields = line.split(/[ \t]+/)
  if (fields.length < 2 || fields.length > 3) throw fail('expected "from to [status]"')
  const [from, to, statusText] = fields as [string, string, string | undefined]
  if (!from.startsWith('/')) throw fail(`"from" must be a path starting with "/", not ${JSON.stringify(from)}`)
  const status = statusText === undefined ? 301 : /^\d{3}$/.test(statusText) ? Number(statusText) : Number.NaN
  if (!STATUSES.has(status)) throw fail(`unsupported redirect status ${JSON.stringify(statusText)}`)
  const absolute = /^https?:\/\//i.test(to)
  if (!to.startsWith('/') && !absolute) throw fail(`"to" must be a path starting with "/" or an http(s) URL`)
  if (absolute && (status === 200 || status >= 400)) {
    throw fail(`a ${status} serves a path of this site; ${JSON.stringify(to)} is another origin's URL`)
  }
  const segments = from.split('/').filter((s) => s !== '')
  const names = new Set<string>()
  segments.forEach((segment, at) => {
    if (segment.includes('*') && (segment !== '*' || at !== segments.length - 1)) {
      throw fail('"*" is only allowed as the last segment of "from"')
    }
    if (!segment.startsWith(':')) return
    const name = segment.slice(1)
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) || name === 'splat') throw fail(`bad placeholder ${segment}`)
    if (names.has(name)) throw fail(`placeholder ${segment} is used twice in "from"`)
    names.add(name)
  })
  return { from: segments, to, status }
}

/**
 * The first rule matching `pathname` (as requested, percent-encoded; a trailing slash is ignored),
 * with its placeholders filled in from the path's segments and `:splat` from what `*` took.
 */
export function matchRedirect(rules: readonly RedirectRule[], pathname: string): RedirectMatch | undefined {
  const parts = pathname.split('/').filter((s) => s !== '')
  for (const rule of rules) {
    const values = matchSegments(rule.from, parts)
    if (values) return { to: fill(rule.to, values), status: rule.status }
  }
  return undefined
}

function matchSegments(from: readonly string[], parts: readonly string[]): Map<string, string> | undefined {
  const values = new Map<string, string>()
  for (let i = 0; i < from.length; i++) {
    const segment = from[i]!
    if (segment === '*') {
      values.set('splat', parts.slice(i).join('/'))
      return values
    }
    const part = parts[i]
    if (part === undefined) return undefined
    if (segment.startsWith(':')) values.set(segment.slice(1), part)
    else if (segment !== part && segment !== safeDecode(part)) return undefined
  }
  return parts.length === from.length ? values : undefined
}

/** Replaces each `:name` known from the match; anything else (`https:`, an unknown name) stays. */
function fill(to: string, values: ReadonlyMap<string, string>): string {
  return to.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (token, name: string) => values.get(name) ?? token)
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}
