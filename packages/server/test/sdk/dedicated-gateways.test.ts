import type { PinataSDK } from 'pinata'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { routeHostsTo } from '../support/gateway-hosts.js'
import { pinataFor } from '../support/sdk.js'
import { startTestServer, type TestServer } from '../support/server.js'

const GATEWAY_DOMAIN = 'gw.pinfold.test'

/** A noisy PNG (noise does not compress away). */
const photo = (width: number, height: number) =>
  sharp({
    create: { width, height, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 40 } },
  })
    .png()
    .toBuffer()

async function imageOf(data: unknown) {
  const bytes = Buffer.from(await (data as Blob).arrayBuffer())
  return sharp(bytes).metadata()
}

/**
 * The official SDK against `pinfold serve` with `PINFOLD_GATEWAY_DOMAIN`: its gateway is the
 * tenant's dedicated host (`pinataGateway`, set after construction as the README says), where
 * `optimizeImage()` resizes, and `createAccessLink({ gateway })` signs links on that host.
 */
describe('official SDK - dedicated gateways and optimizeImage', () => {
  let server: TestServer
  let pinata: PinataSDK
  let restoreFetch: () => void
  beforeAll(async () => {
    server = await startTestServer({ PINFOLD_GATEWAY_DOMAIN: GATEWAY_DOMAIN })
    restoreFetch = routeHostsTo(server.url, GATEWAY_DOMAIN)
    for (const [name, org] of [
      ['acme', undefined],
      ['bee', 'tenant-b'],
    ] as const) {
      const res = await server.api('/v3/gateways/domains', { method: 'POST', body: JSON.stringify({ name }), org })
      expect(res.status).toBe(201)
    }
    pinata = pinataFor(server.url, await server.token())
    pinata.config!.pinataGateway = `http://acme.${GATEWAY_DOMAIN}`
  })
  afterAll(async () => {
    restoreFetch?.()
    await server?.close()
  })

  it('gateways.public.get(cid).optimizeImage() - resized and re-encoded on the dedicated gateway', async () => {
    const upload = await pinata.upload.public.file(
      new File([await photo(320, 240)], 'photo.png', { type: 'image/png' }),
    )
    const plain = await pinata.gateways.public.get(upload.cid)
    expect(plain.contentType).toBe('image/png')
    expect(await imageOf(plain.data)).toMatchObject({ width: 320, height: 240 })
    const optimized = await pinata.gateways.public.get(upload.cid).optimizeImage({ width: 80, format: 'webp' })
    expect(optimized.contentType).toBe('image/webp')
    expect(await imageOf(optimized.data)).toMatchObject({ format: 'webp', width: 80, height: 60 })
    const cover = await pinata.gateways.public
      .get(upload.cid)
      .optimizeImage({ width: 50, height: 50, fit: 'cover', gravity: 'auto', quality: 50, dpr: 2 })
    expect(await imageOf(cover.data)).toMatchObject({ format: 'png', width: 100, height: 100 })
  })

  it("gateways.private.createAccessLink({ gateway }) - a link on the tenant's host that opens there; another tenant's host is a 400", async () => {
    const secret = await pinata.upload.private.file(
      new File([await photo(200, 100)], 'secret.png', { type: 'image/png' }),
    )
    const link = await pinata.gateways.private.createAccessLink({
      cid: secret.cid,
      expires: 60,
      gateway: `acme.${GATEWAY_DOMAIN}`,
    })
    expect(link.startsWith(`https://acme.${GATEWAY_DOMAIN}/files/${secret.cid}?`)).toBe(true)
    const opened = await fetch(link)
    expect(opened.status).toBe(200)
    expect(await imageOf(await opened.blob())).toMatchObject({ width: 200, height: 100 })
    // the same link on tenant B's host: A's file does not exist there
    expect((await fetch(link.replace(`acme.${GATEWAY_DOMAIN}`, `bee.${GATEWAY_DOMAIN}`))).status).toBe(404)

    const resized = await pinata.gateways.private
      .createAccessLink({ cid: secret.cid, expires: 60, gateway: `acme.${GATEWAY_DOMAIN}` })
      .optimizeImage({ width: 50, format: 'webp' })
    expect(await imageOf(await (await fetch(resized)).blob())).toMatchObject({ format: 'webp', width: 50, height: 25 })

    await expect(
      pinata.gateways.private.createAccessLink({ cid: secret.cid, expires: 60, gateway: `bee.${GATEWAY_DOMAIN}` }),
    ).rejects.toMatchObject({ statusCode: 400, message: expect.stringMatching(/not one of this account's gateways/) })
  })

  it('gateways.private.get(cid).optimizeImage() - signed on the dedicated host, transformed there', async () => {
    const secret = await pinata.upload.private.file(new File([await photo(120, 120)], 'p.png', { type: 'image/png' }))
    const got = await pinata.gateways.private.get(secret.cid).optimizeImage({ width: 30, format: 'webp' })
    expect(got.contentType).toBe('image/webp')
    expect(await imageOf(got.data)).toMatchObject({ format: 'webp', width: 30 })
  })
})
