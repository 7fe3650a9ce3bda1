import { countBody } from '../counted-body.js'
import type { GatewayFormat as NegotiatedFormat } from '../gateway/negotiation.js'
import { negotiateFormat } from '../gateway/negotiation.js'
import type { Middleware } from './middleware.js'

/**
 * What the handler tells a metrics collector (the `pinfold` server's Prometheus registry, or an
 * embedder's own): plain numbers and a few bounded labels, so `http` stays free of any metrics
 * library. Every label is from a fixed set: the route is its pattern (`/v3/files/:network/:id`),
 * never the raw path.
 */
export interface HttpObserver {
  /** Every answer, once the handler has returned it (for a download: its headers, not its last byte). */
  answered(request: AnsweredRequest): void
  /** A gateway request started; the function it returns is called once, when its body is done. */
  gatewayStarted(): (served: GatewayServed) => void
  /** An upload request answered with success. */
  uploaded(upload: UploadObserved): void
}

export interface AnsweredRequest {
  method: string
  /** The matched route pattern, `gateway`, or `unmatched`. */
  route: string
  status: number
  seconds: number
}

/**
 * What a gateway answer was: a format asked for (raw, car, tar, or a codec's: dag-json, dag-cbor,
 * json, cbor), or the deserialized file (`unixfs`). A closed set: it labels metrics.
 */
export type GatewayFormat = NegotiatedFormat | 'unixfs'

export interface GatewayServed {
  format: GatewayFormat
  status: number
  /** Body bytes the client read (0 for HEAD and bodiless answers). */
  bytes: number
  /** From the request's arrival to the first body byte handed on; undefined when none was. */
  firstByteSeconds: number | undefined
  /** From the request's arrival to the body's end (or the client going away). */
  seconds: number
}

/** How the bytes came in. */
export type UploadPath = 'multipart' | 'tus' | 'signed_url' | 'legacy' | 'pin_by_cid' | 'psa'

export interface UploadObserved {
  path: UploadPath
  /** The request body's length as declared (`Content-Length`; multipart framing included); 0 when undeclared. */
  bytes: number
  /** From the request's arrival to the answer (the body has been read by then). */
  seconds: number
}

/**
 * The upload routes, by method and pattern. A CAR goes through `POST /v3/files` like any multipart
 * body (its `car` field is read mid-stream), so it counts as `multipart`.
 */
const UPLOAD_ROUTES: Record<string, UploadPath> = {
  'POST /v3/files': 'multipart',
  'PATCH /v3/files/:id/:token': 'tus',
  'POST /v3/files/:id': 'signed_url',
  'POST /pinning/pinFileToIPFS': 'legacy',
  'POST /pinning/pinJSONToIPFS': 'legacy',
  'POST /v3/files/public/pin_by_cid': 'pin_by_cid',
  'POST /pinning/pinByHash': 'pin_by_cid',
  // the Pinning Service API at both of its bases; a replace is a new pin too
  'POST /psa/pins': 'psa',
  'POST /pins': 'psa',
  'POST /psa/pins/:requestid': 'psa',
  'POST /pins/:requestid': 'psa',
}

function uploadPath(request: Request, route: string): UploadPath | undefined {
  const path = UPLOAD_ROUTES[`${request.method} ${route}`]
  // a tus creation on the upload route carries `Upload-Length` and no multipart body
  return path === 'multipart' && request.headers.has('upload-length') ? 'tus' : path
}

/** The format label of a gateway request (also the answer cache's, for the answers it keeps). */
export function gatewayFormat(request: Request, url: URL): GatewayFormat {
  try {
    const negotiated = negotiateFormat(request.headers.get('accept'), url.searchParams.get('format'))
    return negotiated === 'not-acceptable' ? 'unixfs' : (negotiated.format ?? 'unixfs')
  } catch {
    return 'unixfs' // a bad `format` is answered 400 by the gateway; counted with the deserialized ones
  }
}

/** Tells `observer` of every answer; without one it is not in the list at all. */
export function observeRequests(observer: HttpObserver): Middleware {
  return async ({ request, url, seen }, next) => {
    // one clock read on each side and no closure for the ordinary request: this runs on every one
    const started = performance.now()
    const response = await next()
    const seconds = (performance.now() - started) / 1000
    const route = seen.route ?? 'unmatched'
    observer.answered({ method: request.method, route, status: response.status, seconds })
    if (route === 'gateway') {
      return observeGatewayBody(observer, request, url, response, () => (performance.now() - started) / 1000)
    }
    const path = response.ok ? uploadPath(request, route) : undefined
    if (path) {
      const bytes = Number(request.headers.get('content-length') ?? 0)
      observer.uploaded({ path, bytes: Number.isSafeInteger(bytes) ? bytes : 0, seconds })
    }
    return response
  }
}

/** Counts a gateway answer's body as the client reads it; the observation is made when it ends. */
function observeGatewayBody(
  observer: HttpObserver,
  request: Request,
  url: URL,
  response: Response,
  seconds: () => number,
): Response {
  const done = observer.gatewayStarted()
  const format = gatewayFormat(request, url)
  const body = response.body
  if (!body || request.method === 'HEAD') {
    done({ format, status: response.status, bytes: 0, firstByteSeconds: undefined, seconds: seconds() })
    return response
  }
  let firstByteSeconds: number | undefined
  return countBody(response, {
    chunk: () => {
      firstByteSeconds ??= seconds()
    },
    end: (bytes) => done({ format, status: response.status, bytes, firstByteSeconds, seconds: seconds() }),
  })
}
