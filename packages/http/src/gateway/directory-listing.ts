import type { GatewayEntry } from '@pinfold/core'
import { GATEWAY_SECURITY_HEADERS, notModified } from './responses.js'

type Directory = Extract<GatewayEntry, { type: 'directory' }>

/**
 * A generated listing is HTML this gateway writes, which may change with the gateway: cached for a
 * week and revalidated after, never `immutable` (path-gateway spec, Kubo's values).
 */
export const LISTING_CACHE = 'public, max-age=604800, stale-while-revalidate=2678400'

/** In the ETag: a new page layout is a new version, so caches drop listings the old one wrote. */
const LISTING_VERSION = 'pinfold-2'

/** Where the listing is: what links in it are built from. */
export interface ListingPlace {
  /** The CID as requested (first segment of the content path). */
  cid: string
  /** The path's segments below the CID, decoded. */
  path: readonly string[]
  /**
   * Where `/ipfs/{cid}/…` content paths live: `''` on a path gateway (the same origin), or
   * `//{host}` from a subdomain gateway, whose parent domain is the path gateway.
   */
  contentOrigin: string
  /**
   * On a DNSLink host, that host: the site is mounted at its root, so breadcrumbs are
   * `/ipns/{host}/…` and CIDs link to cid.ipfs.tech (no path gateway is mounted there).
   */
  dnslinkHost?: string | undefined
}

/**
 * A directory without `index.html`, as Kubo lists one (the layout the suite and users know):
 * breadcrumbs from `/ipfs/{cid}` down, a `..` link below the root, each entry linked by name
 * (relative to the page) and by CID (`?filename=` so the file keeps its name), human sizes.
 * ETag `DirIndex-{version}_CID-{cid}`; short-lived caching (`LISTING_CACHE`).
 */
export async function listingResponse(
  request: Request,
  url: URL,
  entry: Directory,
  place: ListingPlace,
  common: Record<string, string>,
): Promise<Response> {
  const etag = `"DirIndex-${LISTING_VERSION}_CID-${entry.cid}"`
  const headers = new Headers({
    ...GATEWAY_SECURITY_HEADERS,
    ...common,
    'cache-control': LISTING_CACHE,
    etag,
    'content-type': 'text/html; charset=utf-8',
  })
  if (notModified(request, etag)) return new Response(null, { status: 304, headers })
  if (request.method === 'HEAD') return new Response(null, { status: 200, headers })
  // the page's own path, as the URL parser percent-encoded it: entries are linked below it
  const here = url.pathname
  const rows: string[] = []
  const below = place.dnslinkHost ? here !== '/' : place.path.length > 0
  if (below) rows.push(`<tr><td></td><td><a href="${attr(`${here}..`)}">..</a></td><td></td><td></td></tr>`)
  for await (const item of entry.list({ signal: request.signal })) {
    const encodedName = encodeURIComponent(item.name)
    const byCid = place.dnslinkHost
      ? `https://cid.ipfs.tech/#${item.cid}" target="_blank" rel="noreferrer noopener`
      : attr(`${place.contentOrigin}/ipfs/${item.cid}?filename=${encodeURIComponent(encodedName)}`)
    rows.push(
      `<tr><td>&#128196;</td><td><a href="${attr(here + encodedName)}">${text(item.name)}</a></td>` +
        `<td><a class="ipfs-hash" translate="no" href="${byCid}">${item.cid}</a></td>` +
        `<td>${humanSize(item.size)}</td></tr>`,
    )
  }
  const title = text(
    place.dnslinkHost
      ? `/ipns/${place.dnslinkHost}${safeDecode(here)}`
      : `/ipfs/${[place.cid, ...place.path].join('/')}/`,
  )
  const crumbs = place.dnslinkHost ? siteBreadcrumbs(place.dnslinkHost, here) : breadcrumbs(place)
  const html = `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title></head><body><header><div><strong>Index of</strong></div><div>${crumbs}</div><div>${entry.cid}</div></header><table>${rows.join('')}</table></body></html>`
  return new Response(html, { status: 200, headers })
}

/** `/ipfs/<a>{cid}</a>/<a>{name}</a>/…`, each linking the content path down to it. */
function breadcrumbs({ cid, path, contentOrigin }: ListingPlace): string {
  let href = `${contentOrigin}/ipfs/${cid}`
  const links = [`<a href="${attr(href)}">${text(cid)}</a>`]
  for (const name of path) {
    href += `/${encodeURIComponent(name)}`
    links.push(`<a href="${attr(href)}">${text(name)}</a>`)
  }
  return `/ipfs/${links.join('/')}`
}

/** `/ipns/<a>{host}</a>/<a>{name}</a>/…` for a DNSLink site, each linking its path on the host. */
function siteBreadcrumbs(host: string, here: string): string {
  let href = `//${host}`
  const links = [`<a href="${attr(`${href}/`)}">${text(host)}</a>`]
  for (const segment of here.split('/').filter((s) => s !== '')) {
    href += `/${segment}`
    links.push(`<a href="${attr(href)}">${text(safeDecode(segment))}</a>`)
  }
  return `/ipns/${links.join('/')}`
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value)
  } catch {
    return value
  }
}

/** Sizes in SI units as Kubo prints them (go-humanize): `31 B`, `1.2 kB`, `12 MB`. */
export function humanSize(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`
  const units = ['kB', 'MB', 'GB', 'TB', 'PB', 'EB']
  let value = bytes
  let unit = -1
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000
    unit++
  }
  const rounded = value < 10 ? Math.floor(value * 10 + 0.5) / 10 : Math.floor(value + 0.5)
  return `${rounded} ${units[unit]}`
}

/** Text content: names may hold markup; quotes need no escape outside attributes. */
function text(value: string): string {
  return value.replace(/[&<>]/g, (c) => `&#${c.charCodeAt(0)};`)
}

function attr(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}
