import {
  IMAGE_FITS,
  IMAGE_GRAVITIES,
  type ImageFit,
  type ImageGravity,
  type ImageOutputFormat,
  type ImageTransform,
  invalid,
} from '@pinfold/core'

/** `img-format` values: the SDK sends `auto` or `webp`; the rest are Cloudflare's, which Pinata follows. */
const FORMATS = ['auto', 'webp', 'avif', 'jpeg', 'png'] as const
type RequestedFormat = (typeof FORMATS)[number]

/** Largest `img-dpr`: a 4× screen. */
const MAX_DPR = 4

/** What the `img-*` query parameters ask for, checked, before `auto` and `dpr` are resolved. */
export interface ImageRequest {
  width?: number
  height?: number
  dpr: number
  fit: ImageFit
  gravity: ImageGravity
  quality?: number
  format?: RequestedFormat
  animated: boolean
  sharpen?: number
  keepMetadata: boolean
}

/**
 * The SDK's `optimizeImage()` parameters (`img-width`, `img-height`, `img-dpr`, `img-fit`,
 * `img-gravity`, `img-quality`, `img-format`, `img-anim`, `img-sharpen`, `img-metadata`), or
 * `undefined` when the query has none. `img-onerror=redirect` is accepted and has no effect: a
 * failed transform answers its 4xx. A malformed value is `INVALID_INPUT`, naming the parameter.
 */
export function parseImageRequest(query: URLSearchParams, maxDimension: number): ImageRequest | undefined {
  if (![...query.keys()].some((key) => key.startsWith('img-'))) return undefined
  const size = (name: string) => integer(query, name, 1, maxDimension)
  const quality = integer(query, 'img-quality', 1, 100)
  const sharpen = number(query, 'img-sharpen', 0, 10)
  const metadata = oneOf(query, 'img-metadata', ['keep', 'copyright', 'none'] as const)
  oneOf(query, 'img-onerror', ['redirect'] as const)
  return {
    ...optional('width', size('img-width')),
    ...optional('height', size('img-height')),
    dpr: number(query, 'img-dpr', Number.MIN_VALUE, MAX_DPR) ?? 1,
    fit: oneOf(query, 'img-fit', IMAGE_FITS) ?? 'scaleDown',
    gravity: gravity(query),
    ...optional('quality', quality),
    ...optional('format', oneOf(query, 'img-format', FORMATS)),
    animated: oneOf(query, 'img-anim', ['true', 'false'] as const) !== 'false',
    ...optional('sharpen', sharpen),
    keepMetadata: metadata === 'keep',
  }
}

/**
 * The transform to run for a request: `img-dpr` multiplies the size (capped at `maxDimension`),
 * `img-format=auto` picks AVIF, then WebP, from `Accept`, else keeps the input's format.
 */
export function resolveTransform(image: ImageRequest, accept: string | null, maxDimension: number): ImageTransform {
  const scaled = (side: number | undefined) =>
    side === undefined ? undefined : Math.max(1, Math.min(maxDimension, Math.round(side * image.dpr)))
  return {
    width: scaled(image.width),
    height: scaled(image.height),
    fit: image.fit,
    gravity: image.gravity,
    quality: image.quality,
    format: image.format === 'auto' ? negotiate(accept) : image.format,
    animated: image.animated,
    sharpen: image.sharpen,
    keepMetadata: image.keepMetadata,
  }
}

/** One spelling per transform: the cache key and the ETag's tag are made from it. */
export function canonicalTransform(transform: ImageTransform): string {
  const { width, height, fit, gravity, quality, format, animated, sharpen, keepMetadata } = transform
  return JSON.stringify([width, height, fit, gravity, quality, format, animated, sharpen, keepMetadata])
}

function negotiate(accept: string | null): ImageOutputFormat | undefined {
  const types = (accept ?? '').toLowerCase()
  if (types.includes('image/avif')) return 'avif'
  if (types.includes('image/webp')) return 'webp'
  return undefined
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V }
}

function integer(query: URLSearchParams, name: string, min: number, max: number): number | undefined {
  const value = query.get(name)
  if (value === null || value === '') return undefined
  const n = /^\d+$/.test(value) ? Number(value) : Number.NaN
  if (!(n >= min && n <= max)) throw invalid(`${name} must be an integer from ${min} to ${max}`)
  return n
}

function number(query: URLSearchParams, name: string, min: number, max: number): number | undefined {
  const value = query.get(name)
  if (value === null || value === '') return undefined
  const n = /^\d+(\.\d+)?$/.test(value) ? Number(value) : Number.NaN
  if (!(n >= min && n <= max)) throw invalid(`${name} must be a number up to ${max}`)
  return n
}

/**
 * `img-gravity`: a side, `auto`, or Cloudflare's focal point `XxY` (0–1 each), which is taken to
 * the side it lies nearest (a third from an edge), else the center.
 */
function gravity(query: URLSearchParams): ImageGravity {
  const point = /^(0(?:\.\d+)?|1(?:\.0+)?)x(0(?:\.\d+)?|1(?:\.0+)?)$/.exec(query.get('img-gravity') ?? '')
  if (!point) return oneOf(query, 'img-gravity', IMAGE_GRAVITIES) ?? 'center'
  const [x, y] = [Number(point[1]), Number(point[2])]
  if (x < 1 / 3) return 'left'
  if (x > 2 / 3) return 'right'
  if (y < 1 / 3) return 'top'
  if (y > 2 / 3) return 'bottom'
  return 'center'
}

function oneOf<T extends string>(query: URLSearchParams, name: string, values: readonly T[]): T | undefined {
  const value = query.get(name)
  if (value === null || value === '') return undefined
  if (!(values as readonly string[]).includes(value)) throw invalid(`${name} must be one of ${values.join(', ')}`)
  return value as T
}
