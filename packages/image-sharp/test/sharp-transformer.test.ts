import type { ImageTransform } from '@pinfold/interface'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { createSharpTransformer } from '../src/index.js'

const PLAIN: ImageTransform = { fit: 'scaleDown', gravity: 'center', animated: true, keepMetadata: false }

/** A noisy RGB image (noise does not compress away, so sizes and work are real). */
function noise(width: number, height: number) {
  return sharp({
    create: { width, height, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 40 } },
  })
}

async function* chunks(bytes: Uint8Array, size = 16 * 1024): AsyncGenerator<Uint8Array> {
  for (let offset = 0; offset < bytes.length; offset += size) yield bytes.subarray(offset, offset + size)
}

/**
 * A PNG whose header claims `width` × `height` (CRCs fixed), over a 1×1 image's data: what a
 * decompression bomb looks like to a decoder before it inflates anything.
 */
async function claimedPng(width: number, height: number): Promise<Uint8Array> {
  const { crc32 } = await import('node:zlib')
  const png = Buffer.from(
    await sharp({ create: { width: 1, height: 1, channels: 3, background: '#fff' } })
      .png()
      .toBuffer(),
  )
  // IHDR data starts after the 8-byte signature, the chunk length (4) and type (4)
  png.writeUInt32BE(width, 16)
  png.writeUInt32BE(height, 20)
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29)
  return png
}

describe('createSharpTransformer', () => {
  it('resizes, keeps the aspect ratio, re-encodes to the format asked for', async () => {
    const transformer = createSharpTransformer()
    const png = await noise(400, 200).png().toBuffer()
    const out = await transformer.transform(chunks(png), { ...PLAIN, width: 100, format: 'webp', quality: 60 })
    expect(out.contentType).toBe('image/webp')
    expect(await sharp(out.bytes).metadata()).toMatchObject({ format: 'webp', width: 100, height: 50 })
  })

  it('without a format keeps the input format; fits: scaleDown never enlarges, contain does, cover and pad fill the box', async () => {
    const transformer = createSharpTransformer()
    const jpeg = await noise(200, 100).jpeg().toBuffer()
    const size = async (transform: Partial<ImageTransform>) => {
      const out = await transformer.transform(chunks(jpeg), { ...PLAIN, ...transform })
      const meta = await sharp(out.bytes).metadata()
      return [out.contentType, meta.width, meta.height]
    }
    expect(await size({ width: 400 })).toEqual(['image/jpeg', 200, 100])
    expect(await size({ width: 400, fit: 'contain' })).toEqual(['image/jpeg', 400, 200])
    expect(await size({ width: 50, height: 50, fit: 'cover', gravity: 'auto' })).toEqual(['image/jpeg', 50, 50])
    expect(await size({ width: 80, height: 80, fit: 'pad', format: 'png' })).toEqual(['image/png', 80, 80])
    // crop never enlarges: on a smaller image it is scaleDown
    expect(await size({ width: 50, height: 50, fit: 'crop' })).toEqual(['image/jpeg', 50, 50])
    expect(await size({ width: 400, height: 400, fit: 'crop' })).toEqual(['image/jpeg', 200, 100])
  })

  it('animated input keeps its frames unless animated is false', async () => {
    const transformer = createSharpTransformer()
    // three 20×20 frames of one 20×60 strip
    const raw = Buffer.alloc(20 * 60 * 4, 255)
    // frames that differ, or the encoder merges them
    raw.fill(0, 20 * 20 * 4, 20 * 40 * 4)
    const anim = await sharp(raw, { raw: { width: 20, height: 60, channels: 4, pageHeight: 20 } })
      .gif({ loop: 0, delay: [100, 100, 100] })
      .toBuffer()
    expect((await sharp(anim, { animated: true }).metadata()).pages).toBe(3)
    const kept = await transformer.transform(chunks(anim), { ...PLAIN, width: 10, format: 'webp' })
    expect((await sharp(kept.bytes, { animated: true }).metadata()).pages).toBe(3)
    const first = await transformer.transform(chunks(anim), { ...PLAIN, width: 10, format: 'webp', animated: false })
    expect((await sharp(first.bytes, { animated: true }).metadata()).pages ?? 1).toBe(1)
  })

  it('a decompression bomb is refused from its header, at once (UNPROCESSABLE)', async () => {
    const transformer = createSharpTransformer()
    const bomb = await claimedPng(60_000, 60_000)
    expect(bomb.length).toBeLessThan(200)
    const started = performance.now()
    await expect(transformer.transform(chunks(bomb), { ...PLAIN, width: 10 })).rejects.toMatchObject({
      code: 'UNPROCESSABLE',
      message: expect.stringMatching(/pixels/),
    })
    expect(performance.now() - started).toBeLessThan(1000)
    // a real image over a low limit: refused the same way
    const small = createSharpTransformer({ maxInputPixels: 10_000 })
    const real = await noise(200, 200).png().toBuffer()
    await expect(small.transform(chunks(real), PLAIN)).rejects.toMatchObject({ code: 'UNPROCESSABLE' })
  })

  it.each([
    ['cover', { fit: 'cover', width: 256, height: 256 }],
    ['contain', { fit: 'contain', width: 256 }],
    ['pad', { fit: 'pad', width: 256, height: 256 }],
  ] as const)(
    'an animated image of many small frames upscaled (%s) is refused from its header: pixels × frames',
    async (_, size) => {
      // 20 frames of 8×8: 1 280 input pixels, each frame 256×256 out: 1 310 720 pixels written
      const frames = 20
      const raw = Buffer.alloc(8 * 8 * frames * 4)
      for (let i = 0; i < raw.length; i++) raw[i] = (i * 2654435761) >>> 24
      const anim = await sharp(raw, { raw: { width: 8, height: 8 * frames, channels: 4, pageHeight: 8 } })
        .gif({ loop: 0 })
        .toBuffer()
      expect((await sharp(anim, { animated: true }).metadata()).pages).toBe(frames)
      const transformer = createSharpTransformer({ maxInputPixels: 1_000_000 })
      for (const format of ['webp', 'jpeg'] as const) {
        await expect(transformer.transform(chunks(anim), { ...PLAIN, ...size, format })).rejects.toMatchObject({
          code: 'UNPROCESSABLE',
          message: expect.stringMatching(/1000000 pixels.*frames/),
        })
      }
      // the same upscale of the first frame only, or of every frame to a size within the limit, is done
      const first = await transformer.transform(chunks(anim), { ...PLAIN, ...size, format: 'webp', animated: false })
      expect(await sharp(first.bytes).metadata()).toMatchObject({ width: 256 })
      const small = await transformer.transform(chunks(anim), {
        ...PLAIN,
        fit: size.fit,
        width: 64,
        height: 64,
        format: 'webp',
      })
      expect(await sharp(small.bytes, { animated: true }).metadata()).toMatchObject({ width: 64, pages: frames })
    },
  )

  it('not an image, too many input bytes, too large an output: 4xx codes, no crash', async () => {
    const transformer = createSharpTransformer({ maxInputBytes: 50_000, maxOutputBytes: 2_000 })
    await expect(transformer.transform(chunks(new TextEncoder().encode('hello')), PLAIN)).rejects.toMatchObject({
      code: 'UNPROCESSABLE',
    })
    const big = await noise(300, 300).png().toBuffer()
    expect(big.length).toBeGreaterThan(50_000)
    await expect(transformer.transform(chunks(big), PLAIN)).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE' })
    const mid = await noise(100, 100).jpeg({ quality: 90 }).toBuffer()
    await expect(transformer.transform(chunks(mid), { ...PLAIN, format: 'png' })).rejects.toMatchObject({
      code: 'UNPROCESSABLE',
      message: expect.stringMatching(/2000 bytes/),
    })
  })

  it('beyond concurrency and queue: RATE_LIMITED at once, the rest complete', async () => {
    const transformer = createSharpTransformer({ concurrency: 1, maxQueue: 2, maxPerTenant: 4 })
    const png = await noise(600, 600).png({ compressionLevel: 0 }).toBuffer()
    const work = () => transformer.transform(chunks(png), { ...PLAIN, width: 500, format: 'webp' })
    const results = await Promise.allSettled([work(), work(), work(), work()])
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'rejected'])
    expect((results[3] as PromiseRejectedResult).reason).toMatchObject({ code: 'RATE_LIMITED' })
  })

  it("one tenant holding its share of slots and queue is RATE_LIMITED, while another tenant's transform runs", async () => {
    const transformer = createSharpTransformer({ concurrency: 2, maxQueue: 8, maxPerTenant: 3 })
    const png = await noise(64, 64).png().toBuffer()
    // tenant-a's inputs arrive only when the test lets them: its transforms hold their slots meanwhile
    let release!: () => void
    const released = new Promise<void>((resolve) => {
      release = resolve
    })
    async function* stalled(): AsyncGenerator<Uint8Array> {
      await released
      yield* chunks(png)
    }
    const mine = [1, 2, 3].map(() =>
      transformer.transform(stalled(), { ...PLAIN, width: 32, format: 'png' }, { tenant: 'tenant-a' }),
    )
    await expect(
      transformer.transform(chunks(png), { ...PLAIN, width: 32 }, { tenant: 'tenant-a' }),
    ).rejects.toMatchObject({ code: 'RATE_LIMITED', message: expect.stringContaining('of this account') })
    const theirs = await transformer.transform(
      chunks(png),
      { ...PLAIN, width: 16, format: 'png' },
      { tenant: 'tenant-b' },
    )
    expect(theirs.contentType).toBe('image/png')
    expect((await sharp(theirs.bytes).metadata()).width).toBe(16)
    release()
    for (const image of await Promise.all(mine)) expect((await sharp(image.bytes).metadata()).width).toBe(32)
  })
})
