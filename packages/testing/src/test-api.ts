import { resolveTxt as systemResolveTxt } from 'node:dns/promises'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { MemoryBlobStore } from '@pinfold/adapter-memory'
import {
  type BlobStore,
  createFileService,
  createTokenVerifier,
  type Embedder,
  type FileService,
  type FileServiceOptions,
  mintToken,
  type PaymentVerifier,
  type RecordStore,
  SCOPES,
  type TokenVerifier,
} from '@pinfold/core'
import { createLocalEmbedder } from '@pinfold/embedders'
import { createFetchHandler, type FetchHandler, type FetchHandlerOptions } from '@pinfold/http'
import { createSharpTransformer } from '@pinfold/image-sharp'
import { createExtractionPool, type ExtractionPoolOptions } from '@pinfold/text-extract'
import { createFacilitatorVerifier, createOfflineVerifier, findChain, X402_CHAINS } from '@pinfold/x402'
import { createRemoteJWKSet } from 'jose'
import { type OpenedStores, openStores, STORAGE } from './storage.js'

export const TEST_SECRET = 'pinfold-test-secret-0123456789abcdef0123456789'

/** Where the in-process API is addressed: not a listening socket, only the origin links are built on. */
export const TEST_ORIGIN = 'http://pinfold.test'

export interface TokenOptions {
  sub?: string
  org?: string
  scopes?: readonly string[]
  expiresIn?: number | string
}

/** `fetch`'s signature: the in-process API answers it from the handler, a real server over the network. */
export type ApiFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>

/**
 * `init.auth`: another bearer token, or `null` for none; `init.org`: a token of that tenant; by
 * default a token of tenant "acme" with every scope.
 */
export type ApiInit = RequestInit & { auth?: string | null; org?: string }
export type ApiClient = (path: string, init?: ApiInit) => Promise<Response>

/**
 * What the API tests and their helpers use of a Pinfold instance, in process (`startTestApi`) or
 * behind a real server (`@pinfold/server`'s `startTestServer`, which offers the same).
 */
export interface ApiTarget {
  /** The origin requests go to; links in answers are absolute on it unless `publicUrl` says otherwise. */
  url: string
  service: FileService
  /** The stores the service runs on, opened by the test support so that tests can look into them. */
  stores: { records: RecordStore; blobs: BlobStore }
  /** A token for `org` (default tenant "acme") with the given scopes (default: every scope). */
  token(options?: TokenOptions): Promise<string>
  /** A request to `url + path` with a bearer token (see `ApiInit`). */
  api: ApiClient
  /** A request to this instance by absolute URL (a signed link, a tus Location, another Host). */
  fetch: ApiFetch
  /** Blobs held by the blob store, counted in the backend. */
  blobCount(): number
}

export interface TestApi extends ApiTarget {
  handler: FetchHandler
  /** A temporary directory of its own (PGlite and filesystem blobs live there on embedded storage). */
  dataDir: string
  close(): Promise<void>
}

export interface TestApiOptions
  extends Partial<Omit<FetchHandlerOptions, 'auth'>>,
    Pick<
      FileServiceOptions,
      | 'clock'
      | 'resolveTxt'
      | 'maxUploadBytes'
      | 'uploadHashing'
      | 'textExtractor'
      | 'blockFetchers'
      | 'pinning'
      | 'gatewayDomain'
      | 'maxUsageRowsPerDay'
      | 'gatewayCache'
      | 'denylists'
      | 'denylistHolderPageSize'
      | 'denylistPrivateReads'
      | 'onContentBlocked'
      | 'webhookTransport'
      | 'webhooks'
    > {
  /** The origin requests are addressed to; default `TEST_ORIGIN`. */
  url?: string
  /**
   * Default: `PINFOLD_TEST_STORAGE`. `memory`: memory stores whatever that says (tests that look
   * inside them). `embedded`: a SQL record store whatever it says (PGlite when it says memory).
   */
  storage?: 'memory' | 'embedded'
  /** Stores of the test's own (faulty, counting, shared); the one not given is a memory store. */
  records?: RecordStore
  blobs?: BlobStore
  /** Default: the local embedder, as `pinfold serve` has; `null`: none. */
  embedder?: Embedder | null
  /** Limits of the text extraction workers (used unless `textExtractor` replaces them). */
  extraction?: ExtractionPoolOptions
  /** x402 defaults, as `PINFOLD_X402_PAY_TO` / `_NETWORK` / `_FACILITATOR_URL` / `_FACILITATOR_TIMEOUT_MS` set them. */
  payTo?: string
  network?: string
  facilitatorUrl?: string
  facilitatorTimeoutMs?: number
  /** A payment verifier replacing the one the x402 settings above give. */
  payments?: PaymentVerifier
  /** Tokens are verified by this JWKS instead of the test secret (`PINFOLD_JWKS_URL`). */
  jwksUrl?: string
  /** `PINFOLD_JWT_MAX_LIFETIME_SECONDS`. */
  jwtMaxLifetimeSeconds?: number
}

/**
 * Pinfold's API in process: the service built from the adapters and the fetch handler built with
 * the options `pinfold serve` passes (server/src/server.ts: signing secret, x402 settings, the
 * local embedder, text extraction on worker threads, image optimisation, token verifier, public
 * URL, subdomain host, rate limits), on the storage `PINFOLD_TEST_STORAGE` names. `api` and `fetch` call the handler
 * directly: no socket, no node:http bridge. What the bridge does (Host checks, client addresses,
 * body idle timeouts, aborts on disconnect) is tested over real servers in packages/server/test.
 */
export async function startTestApi(options: TestApiOptions = {}): Promise<TestApi> {
  const dataDir = await mkdtemp(join(tmpdir(), 'pinfold-api-'))
  const extraction = createExtractionPool(options.extraction)
  let stores: OpenedStores | undefined
  try {
    stores = await openTestStores(options, dataDir)
    const {
      url = TEST_ORIGIN,
      embedder,
      payTo,
      network,
      facilitatorUrl,
      facilitatorTimeoutMs,
      payments,
      jwksUrl,
      jwtMaxLifetimeSeconds,
      clock,
      resolveTxt,
      maxUploadBytes,
      uploadHashing,
      textExtractor,
      blockFetchers,
      pinning,
      gatewayDomain,
      maxUsageRowsPerDay,
      gatewayCache,
      denylists,
      denylistHolderPageSize,
      denylistPrivateReads,
      onContentBlocked,
      webhookTransport,
      webhooks,
      ...handlerOptions
    } = options
    const service = createFileService({
      records: stores.records,
      blobs: stores.blobs,
      maxUploadBytes,
      uploadHashing,
      signingSecret: TEST_SECRET,
      ...paymentOptions({ payTo, network, facilitatorUrl, facilitatorTimeoutMs }),
      ...(payments && { payments }),
      embedder:
        embedder === null ? undefined : (embedder ?? createLocalEmbedder({ cacheDir: join(dataDir, 'embeddings') })),
      textExtractor: textExtractor ?? extraction.extract,
      clock,
      // as `pinfold serve` passes it; a test may give its own
      resolveTxt: resolveTxt ?? systemResolveTxt,
      blockFetchers,
      pinning,
      gatewayDomain,
      maxUsageRowsPerDay,
      gatewayCache,
      // one tracer for the handler's request spans and the service's spans below them
      tracer: handlerOptions.tracer,
      denylists,
      denylistHolderPageSize,
      denylistPrivateReads,
      onContentBlocked,
      webhookTransport,
      webhooks,
    })
    const handler = createFetchHandler(service, {
      // image optimisation on sharp, as `pinfold serve` has it unless PINFOLD_IMAGES=off
      images: { transformer: createSharpTransformer() },
      ...handlerOptions,
      auth: tokenVerifier(jwksUrl, jwtMaxLifetimeSeconds),
    })
    // as the server does before it answers (a no-op on fresh stores)
    await service.maintenance.indexBlocks()
    const token = testTokens()
    const fetch = inProcessFetch(handler)
    const opened = stores
    return {
      url,
      handler,
      service,
      stores: { records: opened.records, blobs: opened.blobs },
      dataDir,
      token,
      api: apiClient(fetch, url, token, await token()),
      fetch,
      blobCount: opened.countBlobs,
      async close() {
        await opened.close()
        await extraction.close()
        await rm(dataDir, { recursive: true, force: true })
      },
    }
  } catch (error) {
    await stores?.close()
    await extraction.close()
    await rm(dataDir, { recursive: true, force: true })
    throw error
  }
}

async function openTestStores(options: TestApiOptions, dataDir: string): Promise<OpenedStores> {
  if (options.records || options.blobs) {
    const memory = await openStores('memory', dataDir)
    const blobs = options.blobs ?? memory.blobs
    const countBlobs = () => {
      const { count } = blobs as Partial<MemoryBlobStore>
      if (typeof count !== 'number') throw new Error('blobCount() counts memory blob stores only')
      return count
    }
    return { records: options.records ?? memory.records, blobs, countBlobs, close: memory.close }
  }
  if (options.storage === 'memory') return openStores('memory', dataDir)
  return openStores(options.storage === 'embedded' && STORAGE === 'memory' ? 'embedded' : STORAGE, dataDir)
}

/** The x402 settings `paymentOptionsFromEnv` gives `pinfold serve`: offline verification unless a facilitator is named. */
function paymentOptions(
  options: Pick<TestApiOptions, 'payTo' | 'network' | 'facilitatorUrl' | 'facilitatorTimeoutMs'>,
) {
  const chain = findChain(options.network ?? 'base-sepolia')
  if (!chain) throw new Error(`unknown x402 network ${options.network}`)
  return {
    payments: options.facilitatorUrl
      ? createFacilitatorVerifier({
          url: options.facilitatorUrl,
          ...(options.facilitatorTimeoutMs !== undefined && { timeoutMs: options.facilitatorTimeoutMs }),
        })
      : createOfflineVerifier(),
    paymentSettings: {
      networks: X402_CHAINS,
      defaultNetwork: chain.v1Name,
      ...(options.payTo && { defaultPayTo: options.payTo as `0x${string}` }),
    },
  }
}

function tokenVerifier(jwksUrl: string | undefined, maxLifetimeSeconds: number | undefined): TokenVerifier {
  if (jwksUrl) return createTokenVerifier({ keys: createRemoteJWKSet(new URL(jwksUrl)), maxLifetimeSeconds })
  return createTokenVerifier({ secret: TEST_SECRET, maxLifetimeSeconds })
}

/** Tokens signed with `TEST_SECRET`: user "alice" of tenant "acme" with every scope, for an hour, unless told otherwise. */
export function testTokens(): ApiTarget['token'] {
  return (options = {}) =>
    mintToken(TEST_SECRET, {
      sub: options.sub ?? 'alice',
      org: options.org ?? 'acme',
      scopes: options.scopes ?? SCOPES,
      expiresIn: options.expiresIn ?? '1h',
    })
}

/** Requests to `baseUrl + path` through `send`, with a bearer token as `ApiInit` says. */
export function apiClient(send: ApiFetch, baseUrl: string, token: ApiTarget['token'], defaultToken: string): ApiClient {
  return async (path, init = {}) => {
    const { auth, org, ...rest } = init
    const headers = new Headers(rest.headers)
    const bearer = auth !== undefined ? auth : org !== undefined ? await token({ org }) : defaultToken
    if (bearer !== null) headers.set('authorization', `Bearer ${bearer}`)
    return send(`${baseUrl}${path}`, { ...rest, headers })
  }
}

/**
 * `fetch` answered by the handler: the URL is the one the handler sees, its host standing for the
 * Host header. A signal rejects the call when it aborts, as fetch does.
 */
export function inProcessFetch(handler: FetchHandler): ApiFetch {
  const send = async (input: string | URL | Request, init?: RequestInit, hops = 0): Promise<Response> => {
    // Node's Request wants `duplex: 'half'` for a streamed body; it changes nothing for other bodies
    const request = new Request(input, init?.body ? ({ ...init, duplex: 'half' } as RequestInit) : init)
    const signal = init?.signal
    const response = await (signal
      ? Promise.race([
          handler(request),
          new Promise<never>((_, reject) => {
            if (signal.aborted) reject(signal.reason)
            signal.addEventListener('abort', () => reject(signal.reason), { once: true })
          }),
        ])
      : handler(request))
    // As fetch does, a GET or HEAD follows a redirect unless told not to: on this origin to the
    // handler again, elsewhere (a presigned S3 URL) over the network.
    const location = response.headers.get('location')
    const follows = (init?.redirect ?? 'follow') === 'follow' && (request.method === 'GET' || request.method === 'HEAD')
    if (!follows || !location || ![301, 302, 303, 307, 308].includes(response.status)) return response
    if (hops === 20) throw new TypeError('fetch failed: redirect count exceeded')
    await response.body?.cancel()
    const next = new URL(location, request.url)
    if (next.origin !== new URL(request.url).origin) return fetch(next, { method: request.method, signal })
    return send(next, { ...init, headers: request.headers }, hops + 1)
  }
  return (input, init) => send(input, init)
}

export function form(
  fields: Record<string, string>,
  file?: { bytes: Uint8Array | string; name?: string; type?: string },
): FormData {
  const body = new FormData()
  if (file) {
    const blob = new Blob([file.bytes as string], file.type === undefined ? {} : { type: file.type })
    body.append('file', blob, file.name ?? 'file.bin')
  }
  for (const [key, value] of Object.entries(fields)) body.append(key, value)
  return body
}

export async function upload(
  server: Pick<ApiTarget, 'api'>,
  file: { bytes: Uint8Array | string; name?: string; type?: string },
  fields: Record<string, string> = {},
  auth?: string,
) {
  const res = await server.api('/v3/files', { method: 'POST', body: form(fields, file), auth })
  return { status: res.status, body: (await res.json()) as { data: Record<string, unknown>; error?: string } }
}
