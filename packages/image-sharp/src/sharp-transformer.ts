import { availableParallelism } from 'node:os'
import {
  createFairSlots,
  type ImageGravity,
  type ImageTransform,
  type ImageTransformer,
  type ImageTransformOptions,
  lazyModule,
  optionChecks,
  PinfoldError,
  type TransformedImage,
  throwIfAborted,
} from '@pinfold/interface'
import type sharp from 'sharp'
import type { FitEnum, Sharp } from 'sharp'

export type SharpLibrary = typeof sharp

/**
 * sharp and its libvips (~18 MB of memory once loaded, ~0.5 s of start-up on a small machine) are
 * loaded by the first transform, not when the server starts: most servers never get an `img-*`
 * request. The settings are process-wide, made once it is loaded. A sharp that cannot be loaded
 * answers that request `UNAVAILABLE`; the rest of the gateway is unaffected.
 */
const loadSharp = lazyModule('image transforms', async (): Promise<SharpLibrary> => {
  const { default: library } = await import('sharp')
  library.concurrency(1)
  library.cache(false)
  return library
})

export interface SharpTransformerOptions {
  /** Transforms running at once; default CPUs − 1, at most 2 (see below). */
  concurrency?: number
  /** Transforms waiting for a slot at most; one more is `RATE_LIMITED`. Default 32. */
  maxQueue?: number
  /**
   * Transforms one tenant may have running or waiting; one more is `RATE_LIMITED` while other
   * tenants' still run. Default a quarter of the queue, at least 1.
   */
  maxPerTenant?: number
  /** Transforms of one tenant running at once; default one fewer than `concurrency`, at least 1. */
  maxRunningPerTenant?: number
  /**
   * Pixels (width × height × frames) read at most, and written at most; default 40 000 000 (a
   * 7 300 × 5 500 photo). Both are checked from the header, before a pixel is decoded.
   */
  maxInputPixels?: number
  /** Input bytes read at most; default 32 MiB. */
  maxInputBytes?: number
  /** Output bytes at most; default 16 MiB. */
  maxOutputBytes?: number
  /** Largest width or height written; default 4096. */
  maxDimension?: number
  /** Wall-clock seconds one transform may take once started; default 20. */
  timeoutSeconds?: number
}

/** What the gateway may ask sharp to read: raster formats only (SVG would run librsvg on user XML). */
const INPUT_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif'])

const MEDIA_TYPES: Record<string, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
  avif: 'image/avif',
  heif: 'image/avif', // sharp reports AVIF output by its container
}

const POSITIONS: Record<Exclude<ImageGravity, 'auto'>, string> = {
  center: 'centre',
  left: 'west',
  right: 'east',
  top: 'north',
  bottom: 'south',
}

/**
 * An `ImageTransformer` on sharp (libvips, prebuilt binaries from npm).
 *
 * Why it cannot stall other requests: sharp decodes and encodes on libuv's thread pool, never on
 * the event loop, and that pool (4 threads by default) also serves file reads and DNS. So at most
 * `concurrency` transforms run at once (default 2 on a machine with 3+ CPUs), each with one libvips
 * thread (`sharp.concurrency(1)`, a process-wide setting), leaving pool threads for the rest; more
 * wait in a bounded queue, and past it a request is refused at once (`RATE_LIMITED`) rather than
 * piling up memory. The slots are shared fairly between tenants (`createFairSlots`): one tenant
 * holds at most `maxPerTenant` of them and the queue together and runs at most
 * `maxRunningPerTenant`, so its anonymous visitors cannot get every tenant's transforms refused. Bombs are refused from the header: `limitInputPixels` is checked before
 * libvips decodes a pixel. libvips' own operation cache is off: results are cached by the caller,
 * keyed by CID and options.
 */
export function createSharpTransformer(options: SharpTransformerOptions = {}): ImageTransformer {
  return transformerOn(loadSharp, options)
}

/** `createSharpTransformer` on a given loader of sharp (tests: one that fails). */
export function transformerOn(
  loadSharp: () => Promise<SharpLibrary>,
  options: SharpTransformerOptions = {},
): ImageTransformer {
  const check = optionChecks('@pinfold/image-sharp', 'createSharpTransformer')
  const concurrency = check.positiveInteger(
    'concurrency',
    options.concurrency ?? Math.max(1, Math.min(2, availableParallelism() - 1)),
  )
  const maxQueue = check.positiveInteger('maxQueue', options.maxQueue ?? 32)
  const slots = createFairSlots({
    concurrency,
    maxQueue,
    maxPerParty: check.optionalPositiveInteger('maxPerTenant', options.maxPerTenant),
    maxRunningPerParty: check.optionalPositiveInteger('maxRunningPerTenant', options.maxRunningPerTenant),
    what: 'image transforms',
  })
  const limits = {
    maxInputPixels: check.positiveInteger('maxInputPixels', options.maxInputPixels ?? 40_000_000),
    maxInputBytes: check.positiveInteger('maxInputBytes', options.maxInputBytes ?? 32 * 1024 * 1024),
    maxOutputBytes: check.positiveInteger('maxOutputBytes', options.maxOutputBytes ?? 16 * 1024 * 1024),
    maxDimension: check.positiveInteger('maxDimension', options.maxDimension ?? 4096),
  }
  const timeoutSeconds = check.positiveInteger('timeoutSeconds', options.timeoutSeconds ?? 20)

  async function run(
    input: AsyncIterable<Uint8Array>,
    transform: ImageTransform,
    signal: AbortSignal | undefined,
  ): Promise<TransformedImage> {
    const sharp = await loadSharp()
    // sharp gathers a streamed input into one buffer before libvips reads it; gathering it here
    // instead, bounded, is the same memory and lets a refused input fail cleanly
    const bytes = await gather(input, limits.maxInputBytes, signal)
    const decode = { limitInputPixels: limits.maxInputPixels, animated: transform.animated, failOn: 'error' } as const
    await refuseLargeOutput(sharp, bytes, decode, transform, limits, timeoutSeconds)
    const pipeline = sharp(bytes, { ...decode, sequentialRead: true }).timeout({ seconds: timeoutSeconds })
    configure(sharp, pipeline, transform, limits.maxDimension)
    let result: { data: Buffer; info: sharp.OutputInfo }
    try {
      result = await pipeline.toBuffer({ resolveWithObject: true })
    } catch (error) {
      throw asTransformError(error, limits.maxInputPixels, timeoutSeconds)
    }
    if (result.data.length > limits.maxOutputBytes) {
      throw new PinfoldError(
        'UNPROCESSABLE',
        `the transformed image would exceed ${limits.maxOutputBytes} bytes: ask for a smaller size`,
      )
    }
    const contentType = MEDIA_TYPES[transform.format ?? result.info.format]
    if (!contentType) throw new PinfoldError('UNPROCESSABLE', `cannot write ${result.info.format} images`)
    return { bytes: new Uint8Array(result.data.buffer, result.data.byteOffset, result.data.length), contentType }
  }

  return {
    limits,
    inputTypes: INPUT_TYPES,
    async transform(input, transform, callOptions?: ImageTransformOptions) {
      throwIfAborted(callOptions?.signal)
      const signal = callOptions?.signal
      return slots.run(callOptions?.tenant ?? '', () => run(input, transform, signal), signal)
    },
    stats: () => slots.stats(),
  }
}

/**
 * Refuses a transform whose output would have more than `maxInputPixels` pixels, counting every
 * frame kept, from the header alone: libvips resizes an animation as one strip of its frames, so
 * 20 frames of 8×8 (a 2 KB GIF) asked as 2048×2048 are 84 million pixels to resize and encode
 * (a JPEG of that strip took 825 MB), which no input limit sees.
 */
async function refuseLargeOutput(
  sharp: SharpLibrary,
  bytes: Buffer,
  input: sharp.SharpOptions,
  transform: ImageTransform,
  limits: { maxInputPixels: number; maxDimension: number },
  timeoutSeconds: number,
): Promise<void> {
  let header: sharp.Metadata
  try {
    header = await sharp(bytes, input).metadata()
  } catch (error) {
    throw asTransformError(error, limits.maxInputPixels, timeoutSeconds)
  }
  const frames = transform.animated ? (header.pages ?? 1) : 1
  const width = header.width ?? 0
  const height = header.pageHeight ?? header.height ?? 0
  const [outWidth, outHeight] = outputSize(width, height, transform, limits.maxDimension)
  if (outWidth * outHeight * frames > limits.maxInputPixels) {
    throw new PinfoldError(
      'UNPROCESSABLE',
      `the transformed image would have more than ${limits.maxInputPixels} pixels (width × height × frames): ask for a smaller size or animated=false`,
    )
  }
}

/** The largest size one output frame can have, as `configure` asks sharp to resize (never smaller than sharp's). */
function outputSize(width: number, height: number, transform: ImageTransform, maxDimension: number): [number, number] {
  if (width === 0 || height === 0) return [0, 0]
  const boxWidth = transform.width === undefined ? undefined : Math.min(transform.width, maxDimension)
  const boxHeight = transform.height === undefined ? undefined : Math.min(transform.height, maxDimension)
  if (boxWidth === undefined && boxHeight === undefined) return [width, height] // fit inside maxDimension, never enlarged
  const enlarges = transform.fit !== 'scaleDown' && transform.fit !== 'crop'
  // with both sides, every fit writes at most the box; with one, the other follows the aspect ratio
  if (boxWidth !== undefined && boxHeight !== undefined) return [boxWidth, boxHeight]
  const scale = boxWidth !== undefined ? boxWidth / width : boxHeight! / height
  const factor = enlarges ? scale : Math.min(scale, 1)
  return [Math.ceil(width * factor), Math.ceil(height * factor)]
}

/** Resize, sharpen, metadata and encoding, as the transform says. */
function configure(sharp: SharpLibrary, pipeline: Sharp, transform: ImageTransform, maxDimension: number): void {
  const { width, height, fit, gravity } = transform
  if (width !== undefined || height !== undefined) {
    const sharpFit: Record<ImageTransform['fit'], keyof FitEnum> = {
      scaleDown: 'inside',
      contain: 'inside',
      cover: 'cover',
      crop: 'cover',
      pad: 'contain',
    }
    pipeline.resize({
      width: width === undefined ? undefined : Math.min(width, maxDimension),
      height: height === undefined ? undefined : Math.min(height, maxDimension),
      fit: sharpFit[fit],
      position: gravity === 'auto' ? sharp.strategy.attention : POSITIONS[gravity],
      withoutEnlargement: fit === 'scaleDown' || fit === 'crop',
      background: { r: 255, g: 255, b: 255, alpha: 0 },
    })
  } else {
    // no size asked: still never write more than maxDimension on a side
    pipeline.resize({ width: maxDimension, height: maxDimension, fit: 'inside', withoutEnlargement: true })
  }
  if (transform.sharpen) pipeline.sharpen({ sigma: 0.5 + transform.sharpen / 2 })
  if (transform.keepMetadata) pipeline.keepMetadata()
  if (transform.format) {
    const quality = transform.quality === undefined ? {} : { quality: transform.quality }
    // AVIF at sharp's default effort (4) takes tens of seconds for a large photo on a busy CPU
    // (libheif reports no progress, so the time limit cannot stop it): effort 2 is ~3× faster
    pipeline.toFormat(transform.format, transform.format === 'avif' ? { ...quality, effort: 2 } : quality)
  } else if (transform.quality !== undefined) {
    // the input's own format at another quality: every encoder sharp has takes `quality` but PNG's
    // palette one, which `png({ quality })` turns on; the formats here all accept it
    pipeline.jpeg({ quality: transform.quality, force: false })
    pipeline.webp({ quality: transform.quality, force: false })
    pipeline.avif({ quality: transform.quality, force: false })
  }
}

/** The input in one buffer, refused past `maxBytes` (the gateway checks the stored size first; this is the backstop). */
async function gather(input: AsyncIterable<Uint8Array>, maxBytes: number, signal: AbortSignal | undefined) {
  const chunks: Uint8Array[] = []
  let total = 0
  for await (const chunk of input) {
    throwIfAborted(signal)
    total += chunk.length
    if (total > maxBytes) {
      throw new PinfoldError('PAYLOAD_TOO_LARGE', `images larger than ${maxBytes} bytes are not transformed`)
    }
    chunks.push(chunk)
  }
  return Buffer.concat(chunks, total)
}

/** sharp's failures in Pinfold's terms: every one is about this input, none is a server fault. */
function asTransformError(error: unknown, maxPixels: number, timeoutSeconds: number): PinfoldError {
  const message = (error as Error)?.message ?? String(error)
  if (/pixel limit/i.test(message)) {
    return new PinfoldError('UNPROCESSABLE', `the image has more than ${maxPixels} pixels`, { cause: error })
  }
  if (/timeout/i.test(message)) {
    return new PinfoldError('UNPROCESSABLE', `the image could not be transformed within ${timeoutSeconds} s`, {
      cause: error,
    })
  }
  if (/unsupported image format|bad seek|corrupt|premature end|invalid/i.test(message)) {
    return new PinfoldError('UNPROCESSABLE', 'the content is not an image that can be transformed', { cause: error })
  }
  return new PinfoldError('UNPROCESSABLE', `the image could not be transformed: ${message}`, { cause: error })
}
