import { bytesOf, kuboCid, patternBytes } from '@pinfold/testing/bytes'
import type { PinataSDK } from 'pinata'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pinataFor } from '../support/sdk.js'
import { startTestServer, type TestServer } from '../support/server.js'

describe('official SDK - gateways', () => {
  let server: TestServer
  let pinata: PinataSDK
  beforeAll(async () => {
    server = await startTestServer()
    pinata = pinataFor(server.url, await server.token())
  })
  afterAll(() => server.close())

  it('gateways.public.get - returns text, parsed JSON and binary bytes equal to what was uploaded', async () => {
    const text = await pinata.upload.public.file(new File(['hello world'], 'hello.txt', { type: 'text/plain' }))
    expect(await pinata.gateways.public.get(text.cid)).toEqual({ data: 'hello world', contentType: 'text/plain' })

    const json = await pinata.upload.public.json({ planet: 'earth', moons: 1 })
    // /ipfs/ is content-addressed: the type is sniffed from the bytes (as Kubo does), so JSON may come back as text
    const got = await pinata.gateways.public.get(json.cid)
    const parsed = typeof got.data === 'string' ? JSON.parse(got.data) : got.data
    expect(parsed).toEqual({ planet: 'earth', moons: 1 })

    const bytes = patternBytes(300_000, 7)
    const binary = await pinata.upload.public.file(new File([bytes], 'pattern.bin'))
    expect(binary.cid).toBe(await kuboCid(bytes))
    expect((await bytesOf((await pinata.gateways.public.get(binary.cid)).data)).equals(bytes)).toBe(true)
  })

  it('gateways.public.get - a CID only held privately is not served (NetworkError 404)', async () => {
    const secret = await pinata.upload.private.file(new File(['only private'], 'secret.txt', { type: 'text/plain' }))
    await expect(pinata.gateways.public.get(secret.cid)).rejects.toMatchObject({ statusCode: 404 })
  })

  it('gateways.private.get - signs through /v3/files/sign and returns the private bytes', async () => {
    const bytes = patternBytes(70_000, 11)
    const secret = await pinata.upload.private.file(new File([bytes], 'secret.bin'))
    const got = await pinata.gateways.private.get(secret.cid)
    expect((await bytesOf(got.data)).equals(bytes)).toBe(true)

    const text = await pinata.upload.private.file(new File(['private text'], 'note.txt', { type: 'text/plain' }))
    expect(await pinata.gateways.private.get(text.cid)).toEqual({ data: 'private text', contentType: 'text/plain' })

    const json = await pinata.upload.private.json({ secret: 42 })
    expect(await pinata.gateways.private.get(json.cid)).toEqual({
      data: { secret: 42 },
      contentType: 'application/json',
    })
  })

  it('gateways.private.get - works with a token that can read files but not write them', async () => {
    const secret = await pinata.upload.private.file(new File(['read-only'], 'ro.txt', { type: 'text/plain' }))
    const reader = pinataFor(server.url, await server.token({ scopes: ['org:files:read'] }))
    expect(await reader.gateways.private.get(secret.cid)).toEqual({ data: 'read-only', contentType: 'text/plain' })
  })

  it('gateways.*.get with pinataGatewayKey - the pinataGatewayToken query parameter is tolerated', async () => {
    const keyed = pinataFor(server.url, await server.token())
    keyed.config!.pinataGatewayKey = 'gateway-key'
    const pub = await pinata.upload.public.file(new File(['keyed public'], 'k.txt', { type: 'text/plain' }))
    expect((await keyed.gateways.public.get(pub.cid)).data).toBe('keyed public')
    const priv = await pinata.upload.private.file(new File(['keyed private'], 'k.txt', { type: 'text/plain' }))
    expect((await keyed.gateways.private.get(priv.cid)).data).toBe('keyed private')
  })

  it('gateways.private.createAccessLink - returns a signed /files/{cid} link that downloads the bytes', async () => {
    const bytes = patternBytes(50_000, 13)
    const secret = await pinata.upload.private.file(new File([bytes], 'linked.bin'))
    const link = await pinata.gateways.private.createAccessLink({ cid: secret.cid, expires: 60 })
    expect(link).toMatch(new RegExp(`^${server.url}/files/${secret.cid}\\?`))
    expect(new URL(link).searchParams.get('X-Signature')).toBeTruthy()
    const res = await fetch(link)
    expect(res.status).toBe(200)
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true)

    const tampered = new URL(link)
    tampered.searchParams.set('X-Expires', '999999')
    expect((await fetch(tampered)).status).toBe(403)
  })

  it('gateways.private.createAccessLink().optimizeImage() - content that is no image opens as stored', async () => {
    const bytes = patternBytes(20_000, 17)
    const secret = await pinata.upload.private.file(new File([bytes], 'image.bin'))
    const link = await pinata.gateways.private
      .createAccessLink({ cid: secret.cid, expires: 60 })
      .optimizeImage({ width: 100, format: 'webp' })
    // the options are signed into the link; bytes that are no image are served as they are
    expect(new URL(link).searchParams.get('img-width')).toBe('100')
    const res = await fetch(link)
    expect(res.status).toBe(200)
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true)
  })

  it("gateways.private.createAccessLink - tolerates the SDK's https://http:// gateway prefix (CID taken from the path)", async () => {
    const secret = await pinata.upload.private.file(new File(['via gateway option'], 'g.txt', { type: 'text/plain' }))
    const link = await pinata.gateways.private.createAccessLink({ cid: secret.cid, expires: 60, gateway: server.url })
    const res = await fetch(link)
    expect(res.status).toBe(200)
    expect(await res.text()).toBe('via gateway option')
  })
})
