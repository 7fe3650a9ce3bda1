import { crc32 } from 'node:zlib'
import type { ImageTransformer } from '@pinfold/core'
import { createSharpTransformer, type SharpTransformerOptions } from '@pinfold/image-sharp'
import { type GatewayTestApi, startGatewayApi } from '@pinfold/testing/gateway'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const GATEWAY = 'acme.gw.pinfold.test'

/** A noisy RGB image: noise does not compress away, so sizes and work are real. */
function noise(width: number, height: number) {
  return sharp({
    create: { width, height, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 40 } },
  })
}

/** A 1×1 PNG whose header claims 60 000 × 60 000 pixels (CRC fixed): a decompression bomb's shape. */
async function bombPng(): Promise<Buffer> {
  const png = Buffer.from(
    await sharp({ create: { width: 1, height: 1, channels: 3, background: '#fff' } })
      .png()
      .toBuffer(),
  )
  png.writeUInt32BE(60_000, 16)
  png.writeUInt32BE(60_000, 20)
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29)
  return png
}

/** The sharp transformer, counting the transforms it starts. */
function counted(options: SharpTransformerOptions = {}): ImageTransformer & { calls: number } {
  const inner = createSharpTransformer(options)
  const counter = {
    calls: 0,
    limits: inner.limits,
    inputTypes: inner.inputTypes,
    transform: (...args: Parameters<ImageTransformer['transform']>) => {
      counter.calls++
      return inner.transform(...args)
    },
  }
  return counter
}

async function startWithGateway(transformer: ImageTransformer): Promise<GatewayTestApi> {
  const server = await startGatewayApi({
    publicHost: true,
    gatewayDomain: 'gw.pinfold.test',
    images: { transformer },
  })
  const res = await server.api('/v3/gateways/domains', { method: 'POST', body: JSON.stringify({ name: 'acme' }) })
  if (res.status !== 201) throw new Error(`claim failed: ${res.status}`)
  return server
}

const onGateway = (server: GatewayTestApi, path: string, headers: Record<string, string> = {}) =>
  server.fetch(`http://${GATEWAY}${path}`, { headers })

async function imageOf(res: Response) {
  const bytes = Buffer.from(await res.arrayBuffer())
  return { bytes, meta: await sharp(bytes).metadata() }
}

describe('image optimisation (img-*)', () => {
  let server: GatewayTestApi
  let transformer: ReturnType<typeof counted>
  let png: Buffer
  let photo: string
  beforeAll(async () => {
    transformer = counted()
    server = await startWithGateway(transformer)
    png = await noise(300, 200).png().toBuffer()
    photo = (await server.upload(png, { network: 'public', name: 'photo.png' })).cid as string
  })
  afterAll(() => server.close())

  it("on the tenant's gateway: resized and re-encoded, ETag per variant, Vary: Accept, 304, cached by (CID, options)", async () => {
    const plain = await onGateway(server, `/ipfs/${photo}`)
    expect(Buffer.from(await plain.arrayBuffer()).equals(png)).toBe(true)
    const before = transformer.calls
    const res = await onGateway(server, `/ipfs/${photo}?img-width=100&img-format=webp&img-quality=70`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('image/webp')
    expect(res.headers.get('vary')).toBe('Accept')
    expect(res.headers.get('cache-control')).toMatch(/immutable/)
    const etag = res.headers.get('etag')!
    expect(etag).toMatch(new RegExp(`^"${photo}\\.img\\.[A-Za-z0-9_-]{16}"$`))
    expect(etag).not.toBe(plain.headers.get('etag'))
    const { meta, bytes } = await imageOf(res)
    expect(meta).toMatchObject({ format: 'webp', width: 100, height: 67 })
    expect(Number(res.headers.get('content-length'))).toBe(bytes.length)
    expect(transformer.calls).toBe(before + 1)

    // the same options again: from the cache, byte for byte; If-None-Match: 304 without a transform
    const again = await onGateway(server, `/ipfs/${photo}?img-quality=70&img-format=webp&img-width=100`)
    expect(Buffer.from(await again.arrayBuffer()).equals(bytes)).toBe(true)
    expect(again.headers.get('etag')).toBe(etag)
    const notModified = await onGateway(server, `/ipfs/${photo}?img-width=100&img-format=webp&img-quality=70`, {
      'if-none-match': etag,
    })
    expect(notModified.status).toBe(304)
    expect(transformer.calls).toBe(before + 1)
    // other options: another variant
    const other = await onGateway(server, `/ipfs/${photo}?img-width=100&img-format=webp&img-quality=30`)
    expect(other.headers.get('etag')).not.toBe(etag)
    expect(transformer.calls).toBe(before + 2)
  })

  it('img-format=auto follows Accept (AVIF, then WebP, else the input format); img-dpr multiplies the size', async () => {
    const auto = (accept: string) => onGateway(server, `/ipfs/${photo}?img-width=60&img-format=auto`, { accept })
    const avif = await auto('image/avif,image/webp,*/*')
    expect(avif.headers.get('content-type')).toBe('image/avif')
    const webp = await auto('image/webp,*/*')
    expect(webp.headers.get('content-type')).toBe('image/webp')
    const fallback = await auto('*/*')
    expect(fallback.headers.get('content-type')).toBe('image/png')
    const tags = new Set([avif, webp, fallback].map((r) => r.headers.get('etag')))
    expect(tags.size).toBe(3)
    expect((await imageOf(fallback)).meta).toMatchObject({ format: 'png', width: 60 })
    const dpr = await onGateway(server, `/ipfs/${photo}?img-width=50&img-dpr=2`)
    expect((await imageOf(dpr)).meta.width).toBe(100)
    for (const gravity of ['auto', 'left', '0.1x0.5', '0.5x0.5']) {
      const cover = await onGateway(
        server,
        `/ipfs/${photo}?img-width=40&img-height=40&img-fit=cover&img-gravity=${gravity}`,
      )
      expect((await imageOf(cover)).meta, gravity).toMatchObject({ width: 40, height: 40 })
    }
  })

  it('the shared path gateway, raw blocks and non-images are served as stored', async () => {
    const shared = await server.fetch(`${server.url}/ipfs/${photo}?img-width=100&img-format=webp`)
    expect(shared.headers.get('content-type')).toBe('image/png')
    expect(Buffer.from(await shared.arrayBuffer()).equals(png)).toBe(true)
    const raw = await onGateway(server, `/ipfs/${photo}?format=raw&img-width=100`)
    expect(raw.headers.get('content-type')).toBe('application/vnd.ipld.raw')
    const text = (await server.upload('not an image', { network: 'public', name: 'note.txt' })).cid as string
    const served = await onGateway(server, `/ipfs/${text}?img-width=100`)
    expect(await served.text()).toBe('not an image')
  })

  it('bad parameters are a 400 naming them; a decompression bomb a quick 422; nothing is a 5xx', async () => {
    for (const [query, name] of [
      ['img-width=abc', 'img-width'],
      ['img-width=0', 'img-width'],
      ['img-height=99999', 'img-height'],
      ['img-fit=stretch', 'img-fit'],
      ['img-format=bmp', 'img-format'],
      ['img-quality=101', 'img-quality'],
      ['img-dpr=9', 'img-dpr'],
      ['img-anim=maybe', 'img-anim'],
      ['img-gravity=sideways', 'img-gravity'],
      ['img-gravity=2x0.5', 'img-gravity'],
    ]) {
      const res = await onGateway(server, `/ipfs/${photo}?${query}`)
      expect(res.status, query).toBe(400)
      expect(((await res.json()) as { error: string }).error, query).toContain(name)
    }
    const bomb = (await server.upload(await bombPng(), { network: 'public', name: 'bomb.png' })).cid as string
    const started = performance.now()
    const res = await onGateway(server, `/ipfs/${bomb}?img-width=10`)
    expect(res.status).toBe(422)
    expect(((await res.json()) as { error: string }).error).toMatch(/pixels/)
    expect(performance.now() - started).toBeLessThan(2000)
    const broken = (await server.upload(png.subarray(0, 200), { network: 'public', name: 'broken.png' })).cid as string
    expect((await onGateway(server, `/ipfs/${broken}?img-width=10`)).status).toBe(422)
  })

  it('private links carry img-* under the signature, on the API and on the tenant host', async () => {
    const secret = (await server.upload(png, { network: 'private', name: 'secret.png' })).cid as string
    for (const base of [server.url, `https://${GATEWAY}`]) {
      const made = await server.api('/v3/files/private/download_link', {
        method: 'POST',
        body: JSON.stringify({ url: `${base}/files/${secret}?img-width=64&img-format=webp`, expires: 60 }),
      })
      const link = new URL(((await made.json()) as { data: string }).data)
      expect(link.origin).toBe(new URL(base).origin)
      expect(link.searchParams.get('img-width')).toBe('64')
      const res = await server.fetch(link)
      expect(res.status, base).toBe(200)
      expect(res.headers.get('cache-control')).toMatch(/^private/)
      expect((await imageOf(res)).meta).toMatchObject({ format: 'webp', width: 64 })
      // the options are signed: changed or added ones void the link
      const changed = new URL(link)
      changed.searchParams.set('img-width', '2000')
      expect((await server.fetch(changed)).status).toBe(403)
      const added = new URL(link)
      added.searchParams.set('img-quality', '1')
      expect((await server.fetch(added)).status).toBe(403)
    }
  })
})

describe('image optimisation - without a transformer', () => {
  it("img-* parameters are ignored: the tenant's gateway serves images as stored", async () => {
    const server = await startGatewayApi({ publicHost: true, gatewayDomain: 'gw.pinfold.test', images: undefined })
    try {
      await server.api('/v3/gateways/domains', { method: 'POST', body: JSON.stringify({ name: 'acme' }) })
      const png = await noise(64, 64).png().toBuffer()
      const cid = (await server.upload(png, { network: 'public', name: 'p.png' })).cid as string
      const res = await onGateway(server, `/ipfs/${cid}?img-width=10&img-format=webp`)
      expect(res.headers.get('content-type')).toBe('image/png')
      expect(Buffer.from(await res.arrayBuffer()).equals(png)).toBe(true)
    } finally {
      await server.close()
    }
  })
})

describe('image optimisation - bounded work', () => {
  it('a slow transform does not hold up a concurrent small request; past the queue, 429 at once', async () => {
    const server = await startWithGateway(createSharpTransformer({ concurrency: 1, maxQueue: 1, maxPerTenant: 2 }))
    try {
      // 1600² of noise to 1500 px of WebP: about 2 s at load 17 on 2 cores
      const large = await noise(1600, 1600).png({ compressionLevel: 1 }).toBuffer()
      const big = (await server.upload(large, { network: 'public', name: 'big.png' })).cid as string
      const small = (await server.upload('small file', { network: 'public', name: 'small.txt' })).cid as string
      const slow = (quality: number) =>
        onGateway(server, `/ipfs/${big}?img-width=1500&img-format=webp&img-quality=${quality}`)
      let slowDone = false
      const slowStarted = performance.now()
      let slowMs = 0
      const first = slow(90).then((res) => {
        slowDone = true
        slowMs = performance.now() - slowStarted
        return res
      })
      const queued = slow(80)
      await new Promise((resolve) => setTimeout(resolve, 50))
      const refused = await slow(70)
      expect(refused.status).toBe(429)
      expect(refused.headers.get('retry-after')).toBe('1')

      const started = performance.now()
      const res = await onGateway(server, `/ipfs/${small}`)
      expect(await res.text()).toBe('small file')
      const smallMs = performance.now() - started
      // the small answer came while the transform was still running
      expect(slowDone).toBe(false)
      const slowRes = await first
      expect(slowRes.headers.get('content-type')).toBe('image/webp')
      expect((await queued).status).toBe(200)
      expect(smallMs).toBeLessThan(slowMs / 4)
    } finally {
      await server.close()
    }
  }, 120_000)

  it("a tenant whose gateway holds its share of transforms gets 429, while another tenant's gateway still transforms", async () => {
    const transformer = createSharpTransformer({ concurrency: 2, maxQueue: 8, maxPerTenant: 2 })
    const server = await startWithGateway(transformer)
    let release!: () => void
    try {
      const claimed = await server.api('/v3/gateways/domains', {
        method: 'POST',
        body: JSON.stringify({ name: 'globex' }),
        org: 'globex',
      })
      expect(claimed.status).toBe(201)
      const png = await noise(64, 64).png().toBuffer()
      const mine = (await server.upload(png, { network: 'public', name: 'a.png' })).cid as string
      const theirs = (await server.upload(png, { network: 'public', name: 'b.png' }, 'globex')).cid as string
      // tenant acme's share is taken: two of its transforms wait for input that has not arrived
      const released = new Promise<void>((resolve) => {
        release = resolve
      })
      async function* stalled(): AsyncGenerator<Uint8Array> {
        await released
        yield png
      }
      const held = [1, 2].map(() =>
        transformer.transform(
          stalled(),
          { fit: 'scaleDown', gravity: 'center', animated: true, keepMetadata: false },
          {
            tenant: 'acme',
          },
        ),
      )

      const refused = await onGateway(server, `/ipfs/${mine}?img-width=20`)
      expect(refused.status).toBe(429)
      expect(refused.headers.get('retry-after')).toBe('1')
      expect(((await refused.json()) as { error: string }).error).toBe(
        'too many image transforms of this account are running or waiting (at most 2); try again shortly',
      )
      const served = await server.fetch(`http://globex.gw.pinfold.test/ipfs/${theirs}?img-width=20`)
      expect(served.status).toBe(200)
      expect((await imageOf(served)).meta.width).toBe(20)
      release()
      await Promise.all(held)
      // its share back, acme's gateway transforms again
      expect((await imageOf(await onGateway(server, `/ipfs/${mine}?img-width=20`))).meta.width).toBe(20)
    } finally {
      release?.()
      await server.close()
    }
  })
})
