import { utf8Length } from '../bytes.js'
import type { GatewayFormat } from '../middleware/observe.js'

/**
 * The gateway's answer cache: finished answers of the public gateway (`/ipfs/{cid}[/path]` on the
 * API's host, the subdomain gateway) kept whole — status, headers, a small body — so that the same
 * request again is answered by the node bridge straight onto the socket, without building a
 * Request, a Response or running the middleware and the gateway (`createNodeHandler`'s
 * `keptAnswers`). Measured on a 1 KiB file, those cost about half of a request's CPU, and a public
 * gateway's traffic is mostly the same small objects asked for again and again.
 *
 * An answer is the same for every request with the same {@link keptAnswerKey} (method, scheme,
 * host, target and the headers the gateway reads), as long as the facts it was built on hold: it
 * is kept with the core's stamp of them (`GatewayOperations.answerStamp`: the read cache's
 * invalidations, here and announced by other instances; the deny lists; the hidden tenants) and is
 * served only while that stamp is unchanged and the clock is before the `until` of the content's
 * resolution (its files' latest expiry) and within `maxAgeMs`.
 */
export interface KeptAnswerSettings {
  /** Memory for kept answers (bodies, headers and keys), in bytes; 0 turns the cache off. */
  maxBytes: number
  /** Largest body kept; larger answers always take the full path. */
  maxBodyBytes: number
  /** Longest an answer is kept, whatever else holds. */
  maxAgeMs: number
}

export const DEFAULT_KEPT_ANSWERS: KeptAnswerSettings = {
  maxBytes: 16 * 1024 * 1024,
  maxBodyBytes: 64 * 1024,
  maxAgeMs: 60_000,
}

export interface KeptAnswer {
  status: number
  /** Header names and values, flat and in the full path's order, as `ServerResponse.writeHead` takes them. */
  headers: string[]
  /** `undefined`: no body (HEAD, 304). */
  body: Uint8Array | string | undefined
}

/** What the node bridge asks of a fetch handler's answer cache. */
export interface KeptAnswers {
  /**
   * The kept answer to a request of this key, with its per-request parts (its `X-Request-Id`) and
   * counted as the full path counts it (request log, metrics, the per-address rate limit), or
   * `undefined`: take the full path (nothing kept, the facts changed, the rate limit refuses).
   */
  answer(key: string, request: { requestId: string | undefined; address: string | undefined }): KeptAnswer | undefined
}

/**
 * Request headers that never change a public gateway answer: the gateway reads none of them. A
 * request with any header outside this set and {@link KEYED_HEADERS} (`Range`, conditionals other
 * than `If-None-Match`, `Authorization`, `Cookie`, `Cache-Control`, `Service-Worker`, …) takes the
 * full path and is never kept. `X-Request-Id` is per request: echoed on kept answers too.
 */
const IGNORED_HEADERS = new Set([
  'connection',
  'keep-alive',
  'user-agent',
  'accept-encoding',
  'accept-language',
  'referer',
  'dnt',
  'upgrade-insecure-requests',
  'sec-fetch-site',
  'sec-fetch-mode',
  'sec-fetch-dest',
  'sec-fetch-user',
  'sec-ch-ua',
  'sec-ch-ua-mobile',
  'sec-ch-ua-platform',
  'x-request-id',
  'x-forwarded-for',
])

/** Request headers the answer depends on (negotiation, 304s, CORS, the authority): part of the key. */
const KEYED_HEADERS = new Set(['host', 'accept', 'if-none-match', 'origin'])

/** Read only behind trusted proxies, where they name the scheme and authority. */
const FORWARDED_HEADERS = new Set(['x-forwarded-proto', 'x-forwarded-host'])

/**
 * The key of a GET or HEAD request whose answer may be kept, from what the node bridge has of it
 * (`rawHeaders` as node:http gives them); `undefined` for any other request. Everything the answer
 * depends on is in it: the same key is the same request to the full path.
 */
export function keptAnswerKey(
  method: string,
  scheme: string,
  target: string,
  rawHeaders: readonly string[],
  behindProxy: boolean,
): string | undefined {
  if (method !== 'GET' && method !== 'HEAD') return undefined
  let key = `${method} ${scheme} ${target}`
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!.toLowerCase()
    if (KEYED_HEADERS.has(name) || (behindProxy && FORWARDED_HEADERS.has(name))) {
      key += `\n${name}: ${rawHeaders[i + 1]}`
    } else if (!IGNORED_HEADERS.has(name) && !FORWARDED_HEADERS.has(name)) {
      return undefined
    }
  }
  return key
}

const keys = new WeakMap<Request, string>()

/** Records the key the bridge computed for a request, so its answer can be kept under it. */
export function setKeptAnswerKey(request: Request, key: string): void {
  keys.set(request, key)
}

export function keptAnswerKeyOf(request: Request): string | undefined {
  return keys.get(request)
}

const keepable = new WeakMap<Request, { until: number | null }>()

/**
 * Marks the gateway's answer to `request` as one that may be kept: public content (the same for
 * everyone), resolved without swaps, holding by itself until `until` (`null`: for ever).
 */
export function allowKeeping(request: Request, until: Date | null): void {
  keepable.set(request, { until: until?.getTime() ?? null })
}

export function keepingAllowed(request: Request): { until: number | null } | undefined {
  return keepable.get(request)
}

export interface KeptEntry {
  status: number
  /** Headers before and after where `X-Request-Id` goes, flat. */
  before: string[]
  after: string[]
  body: Uint8Array | string | undefined
  /** What the metrics label the answer with. */
  format: GatewayFormat
  stamp: string
  /** Clock milliseconds after which it is not served. */
  expires: number
  bytes: number
}

/**
 * The kept answers, bounded by bytes: the oldest kept goes first (entries live seconds: the
 * stamp changes whenever the hidden tenants are read again), and one whose stamp or time ran out
 * is dropped when met.
 */
export class KeptAnswerStore {
  readonly #entries = new Map<string, KeptEntry>()
  #bytes = 0

  constructor(readonly settings: KeptAnswerSettings) {}

  get(key: string, stamp: string, now: number): KeptEntry | undefined {
    const entry = this.#entries.get(key)
    if (!entry) return undefined
    if (entry.stamp === stamp && now < entry.expires) return entry
    this.#delete(key, entry)
    return undefined
  }

  set(key: string, entry: Omit<KeptEntry, 'bytes'>): void {
    if (this.settings.maxBytes === 0) return
    const old = this.#entries.get(key)
    if (old) this.#delete(key, old)
    const bytes = 256 + key.length + entry.before.join('').length + entry.after.join('').length + bodyBytes(entry.body)
    if (bytes > this.settings.maxBytes) return
    this.#entries.set(key, { ...entry, bytes })
    this.#bytes += bytes
    for (const [oldest, kept] of this.#entries) {
      if (this.#bytes <= this.settings.maxBytes) break
      this.#delete(oldest, kept)
    }
  }

  #delete(key: string, entry: KeptEntry): void {
    this.#entries.delete(key)
    this.#bytes -= entry.bytes
  }
}

export function bodyBytes(body: Uint8Array | string | undefined): number {
  if (body === undefined) return 0
  return typeof body === 'string' ? utf8Length(body) : body.byteLength
}
