import type { CallOptions } from '../call-options.js'
import type { FairSlotsStats } from '../fair-slots.js'

/**
 * How a resized image fills `width` × `height` (Cloudflare's names, which Pinata's `img-fit` uses):
 * - `scaleDown`: fit inside, never enlarged;
 * - `contain`: fit inside, enlarged if smaller;
 * - `cover`: fill the box, cropping the overflow (enlarged if smaller);
 * - `crop`: like `cover`, but never enlarged;
 * - `pad`: fit inside, the rest of the box filled (transparent where the format allows, else white).
 */
export const IMAGE_FITS = ['scaleDown', 'contain', 'cover', 'crop', 'pad'] as const
export type ImageFit = (typeof IMAGE_FITS)[number]

/** Which part of the image `cover`/`crop` keep: `auto` finds the most interesting region. */
export const IMAGE_GRAVITIES = ['auto', 'center', 'left', 'right', 'top', 'bottom'] as const
export type ImageGravity = (typeof IMAGE_GRAVITIES)[number]

/** Formats a transformer writes. */
export const IMAGE_OUTPUT_FORMATS = ['jpeg', 'png', 'webp', 'avif', 'gif'] as const
export type ImageOutputFormat = (typeof IMAGE_OUTPUT_FORMATS)[number]

/** A transform, already checked and resolved by the caller (`img-dpr` applied, `img-format=auto` negotiated). */
export interface ImageTransform {
  /** Target size in pixels; either may be absent (the other side follows the aspect ratio). */
  width?: number | undefined
  height?: number | undefined
  fit: ImageFit
  gravity: ImageGravity
  /** 1–100; absent: the encoder's default. */
  quality?: number | undefined
  /** Absent: the input's own format. */
  format?: ImageOutputFormat | undefined
  /** Keep every frame of an animated input (GIF, WebP); `false`: the first frame only. */
  animated: boolean
  /** Sharpening strength 0–10; absent or 0: none. */
  sharpen?: number | undefined
  /** Keep EXIF/ICC/XMP metadata; default stripped (it may hold locations). */
  keepMetadata: boolean
}

export interface TransformedImage {
  bytes: Uint8Array
  /** The output's media type, e.g. `image/webp`. */
  contentType: string
}

export interface ImageTransformOptions extends CallOptions {
  /**
   * The tenant whose work this is: the owner of the gateway or the download link the request
   * came through, anonymous requests included. Tenants share the slots fairly; absent, the
   * transform counts for one shared anonymous party.
   */
  tenant?: string | undefined
}

/**
 * Resizes and re-encodes images for the gateway (`img-*` query parameters). Implemented in
 * `@pinfold/image-sharp`; without one, the gateway serves images as stored.
 *
 * Contract: the input is read as a stream and never beyond `limits.maxInputBytes` (more is
 * `PAYLOAD_TOO_LARGE`); an image of more than `limits.maxInputPixels` pixels is refused from its
 * header (`UNPROCESSABLE`), before any pixel is decoded, and so is a transform whose output would
 * have more than `limits.maxInputPixels` pixels, every frame kept counted (an animation of many
 * small frames upscaled); input that is not an image it reads is
 * `UNPROCESSABLE`; an output above `limits.maxOutputBytes` is `UNPROCESSABLE`; work beyond the
 * implementation's concurrency waits in a bounded queue and, when that is full, is `RATE_LIMITED`
 * at once. One tenant cannot take every slot: past its share of the slots and the queue its
 * next transform is `RATE_LIMITED` while other tenants' still run, and freed slots go to tenants
 * in turn. Transforms never block the caller's thread for the time of the work.
 */
export interface ImageTransformer {
  readonly limits: {
    maxInputBytes: number
    maxInputPixels: number
    maxOutputBytes: number
    /** Largest width or height it writes. */
    maxDimension: number
  }
  /** Media types it reads, e.g. `image/jpeg`; other content is served untransformed. */
  readonly inputTypes: ReadonlySet<string>
  transform(
    input: AsyncIterable<Uint8Array>,
    transform: ImageTransform,
    options?: ImageTransformOptions,
  ): Promise<TransformedImage>
  /** Its slots now and its refusals so far, for metrics; optional (a remote transformer may not know). */
  stats?(): FairSlotsStats
}
