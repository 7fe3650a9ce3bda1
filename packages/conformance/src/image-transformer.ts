import { crc32, deflateSync } from 'node:zlib'
import type { ImageTransform, ImageTransformer } from '@pinfold/interface'
import { describe, expect, it } from 'vitest'

const PLAIN: ImageTransform = { fit: 'scaleDown', gravity: 'center', animated: true, keepMetadata: false }

/**
 * A PNG of `width` × `height` RGB pixels (a gradient), written here so the suite needs no image
 * library; `claimed` writes other dimensions into the header than the data holds (a bomb's shape).
 */
export function testPng(width: number, height: number, claimed?: { width: number; height: number }): Uint8Array {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
    const framed = Buffer.alloc(body.length + 8)
    framed.writeUInt32BE(data.length, 0)
    body.copy(framed, 4)
    framed.writeUInt32BE(crc32(body), body.length + 4)
    return framed
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(claimed?.width ?? width, 0)
  header.writeUInt32BE(claimed?.height ?? height, 4)
  header.set([8, 2, 0, 0, 0], 8) // 8-bit RGB, deflate, no filter method, no interlace
  const rows = Buffer.alloc(height * (1 + width * 3))
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) rows.set([x % 256, y % 256, (x * y) % 256], y * (1 + width * 3) + 1 + x * 3)
  }
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  const png = [signature, chunk('IHDR', header), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]
  return new Uint8Array(Buffer.concat(png))
}

/** Width and height from a PNG's header. */
function pngSize(bytes: Uint8Array): { width: number; height: number } {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length)
  expect(view.subarray(1, 4).toString('latin1')).toBe('PNG')
  return { width: view.readUInt32BE(16), height: view.readUInt32BE(20) }
}

async function* chunks(bytes: Uint8Array, size = 4096): AsyncGenerator<Uint8Array> {
  for (let offset = 0; offset < bytes.length; offset += size) yield bytes.subarray(offset, offset + size)
}

/**
 * The ImageTransformer contract (see `ImageTransformer` in @pinfold/interface): `create` gives a
 * transformer whose `limits.maxInputPixels` is below 4 000 000 and whose `limits.maxInputBytes`
 * is below 4 MiB, so the suite can exceed both.
 */
export function describeImageTransformer(name: string, create: () => ImageTransformer): void {
  describe(`ImageTransformer conformance: ${name}`, () => {
    it('transform - resizes to the width asked, keeping the aspect ratio, into the format asked', async () => {
      const transformer = create()
      expect(transformer.inputTypes.has('image/png')).toBe(true)
      const out = await transformer.transform(chunks(testPng(200, 100)), { ...PLAIN, width: 50, format: 'png' })
      expect(out.contentType).toBe('image/png')
      expect(pngSize(out.bytes)).toEqual({ width: 50, height: 25 })
      // no format: the input's own
      const same = await transformer.transform(chunks(testPng(40, 40)), { ...PLAIN, height: 20 })
      expect(same.contentType).toBe('image/png')
      expect(pngSize(same.bytes)).toEqual({ width: 20, height: 20 })
    })

    it('transform - never writes a side longer than limits.maxDimension', async () => {
      const transformer = create()
      const side = transformer.limits.maxDimension
      const out = await transformer.transform(chunks(testPng(60, 30)), { ...PLAIN, width: side * 2, fit: 'contain' })
      expect(pngSize(out.bytes).width).toBeLessThanOrEqual(side)
    })

    it('transform - a header claiming more than maxInputPixels is UNPROCESSABLE before decoding', async () => {
      const transformer = create()
      const side = Math.ceil(Math.sqrt(transformer.limits.maxInputPixels)) + 1
      const bomb = testPng(1, 1, { width: side * 4, height: side * 4 })
      const started = performance.now()
      await expect(transformer.transform(chunks(bomb), { ...PLAIN, width: 10 })).rejects.toMatchObject({
        code: 'UNPROCESSABLE',
      })
      expect(performance.now() - started).toBeLessThan(2000)
    })

    it('transform - bytes that are no image are UNPROCESSABLE; more than maxInputBytes, PAYLOAD_TOO_LARGE', async () => {
      const transformer = create()
      await expect(
        transformer.transform(chunks(new TextEncoder().encode('not an image at all')), PLAIN),
      ).rejects.toMatchObject({ code: 'UNPROCESSABLE' })
      const tooMany = new Uint8Array(transformer.limits.maxInputBytes + 1)
      await expect(transformer.transform(chunks(tooMany, 65536), PLAIN)).rejects.toMatchObject({
        code: 'PAYLOAD_TOO_LARGE',
      })
    })

    it('transform - an aborted signal is ABORTED, nothing runs', async () => {
      const transformer = create()
      const controller = new AbortController()
      controller.abort()
      await expect(
        transformer.transform(chunks(testPng(10, 10)), PLAIN, { signal: controller.signal }),
      ).rejects.toMatchObject({ code: 'ABORTED' })
    })
  })
}
