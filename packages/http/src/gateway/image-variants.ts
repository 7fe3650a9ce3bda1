import { type GatewayEntry, type ImageTransformer, PinfoldError, type TransformedImage } from '@pinfold/core'
import { base64url } from '../bytes.js'
import { canonicalTransform, parseImageRequest, resolveTransform } from './image-options.js'
import { applyRange, chooseContentType, GATEWAY_SECURITY_HEADERS, notModified } from './responses.js'

export interface ImageOptions {
  /** Resizes and re-encodes (`createSharpTransformer()` of `@pinfold/image-sharp`). */
  transformer: ImageTransformer
  /** Bytes of transformed images kept in memory, least recently used dropped first; default 64 MiB, 0: none. */
  cacheBytes?: number | undefined
}

/** What a file answer needs to become an image variant. */
export interface VariantTarget {
  /** The CID whose bytes are read: the cache key and ETag are made from it. */
  cid: string
  entry: Extract<GatewayEntry, { type: 'file' }>
  /** The stored name (for the type) or the type itself. */
  name?: string | undefined
  contentType?: string | undefined
  headers: Record<string, string>
  disposition?: string | undefined
  /**
   * The tenant the transform counts against: the owner of the gateway or link, whoever is asking
   * (anonymous visitors included), so one tenant's traffic cannot take every tenant's slots.
   */
  tenantId: string | undefined
}

export interface ImageVariants {
  /**
   * The transformed image the request's `img-*` parameters ask for, or `undefined` to serve the
   * file as stored: no such parameter, or content that is not an image the transformer reads.
   * A malformed parameter is `INVALID_INPUT`; an image beyond the limits, `PAYLOAD_TOO_LARGE` or
   * `UNPROCESSABLE`.
   */
  respond(request: Request, url: URL, target: VariantTarget): Promise<Response | undefined>
}

/**
 * Image variants with a bounded in-memory cache keyed by (CID, canonical transform).
 *
 * Why memory and not the blob store: a variant is small (bounded by the transformer's output
 * limit), recomputable from content-addressed bytes, and hot ones (thumbnails) are few; kept in
 * the blob store they would count as stored data and need an eviction index shared by every
 * instance, on disk a second store to bound. Immutable `Cache-Control` and a stable ETag let a
 * CDN in front hold them as long as it likes. Identical transforms requested at once run once.
 */
export function createImageVariants(options: ImageOptions): ImageVariants {
  const { transformer } = options
  const cacheBytes = options.cacheBytes ?? 64 * 1024 * 1024
  const cache = new Map<string, TransformedImage>()
  const inFlight = new Map<string, Promise<TransformedImage>>()
  let cachedBytes = 0

  function remember(key: string, image: TransformedImage): void {
    if (image.bytes.length > cacheBytes) return
    cache.set(key, image)
    cachedBytes += image.bytes.length
    for (const [oldest, old] of cache) {
      if (cachedBytes <= cacheBytes) break
      cache.delete(oldest)
      cachedBytes -= old.bytes.length
    }
  }

  async function variant(key: string, run: () => Promise<TransformedImage>): Promise<TransformedImage> {
    const cached = cache.get(key)
    if (cached) {
      // re-inserted: a Map iterates in insertion order, so the first entry is the least recently used
      cache.delete(key)
      cache.set(key, cached)
      return cached
    }
    const running = inFlight.get(key)
    if (running) return running
    const started = run().then((image) => {
      remember(key, image)
      return image
    })
    inFlight.set(key, started)
    try {
      return await started
    } finally {
      inFlight.delete(key)
    }
  }

  return {
    async respond(request, url, target) {
      const { maxDimension, maxInputBytes } = transformer.limits
      const image = parseImageRequest(url.searchParams, maxDimension)
      if (!image) return undefined
      const readable = (type: string | undefined) =>
        type !== undefined && transformer.inputTypes.has(type.split(';')[0]!.trim().toLowerCase())
      // a stored type that is no image (application/octet-stream, say) is checked against the bytes
      if (
        !readable(target.contentType) &&
        !readable(await chooseContentType(target.name, target.entry, request.signal))
      )
        return undefined
      if (target.entry.size > maxInputBytes) {
        throw new PinfoldError('PAYLOAD_TOO_LARGE', `images larger than ${maxInputBytes} bytes are not transformed`)
      }
      const transform = resolveTransform(image, request.headers.get('accept'), maxDimension)
      const canonical = canonicalTransform(transform)
      const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(canonical))
      const etag = `"${target.cid}.img.${base64url(new Uint8Array(digest, 0, 12))}"`
      const headers = new Headers({ ...GATEWAY_SECURITY_HEADERS, ...target.headers, etag })
      // the variant depends on Accept when the format is negotiated, and the gateway's answer always may
      headers.set('vary', 'Accept')
      if (target.disposition) headers.set('content-disposition', target.disposition)
      if (notModified(request, etag)) return new Response(null, { status: 304, headers })
      // shared by identical requests, so no one request's signal stops it: it ends within the
      // transformer's time limit and its result is cached
      const result = await variant(`${target.cid}|${canonical}`, async () =>
        transformer.transform(await target.entry.read(), transform, { tenant: target.tenantId }),
      )
      headers.set('content-type', result.contentType)
      headers.set('accept-ranges', 'bytes')
      const range = applyRange(request, headers, result.bytes.length)
      if (range instanceof Response) return range
      if (request.method === 'HEAD') return new Response(null, { status: range.status, headers })
      const body = result.bytes.subarray(range.offset, range.offset + range.length)
      return new Response(body as Uint8Array<ArrayBuffer>, { status: range.status, headers })
    },
  }
}
