import { bytesOf, HELLO_WORLD_CID, kuboCid, patternBytes } from '@pinfold/testing/bytes'
import { directoryVector, pngBytes } from '@pinfold/testing/uploads'
import { PinataSDK } from 'pinata'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pinataFor } from '../support/sdk.js'
import { startTestServer, type TestServer } from '../support/server.js'

const HELLO = new TextEncoder().encode('hello world')
const PLANETS_V1 = directoryVector('dir planets (ipfs add -r planets)').cidv1
const planets = () => [new File(['Hello Mars!\n'], 'mars.txt'), new File(['Hello Venus!\n'], 'venus.txt')]

describe('official SDK - uploads', () => {
  let server: TestServer
  let pinata: PinataSDK
  beforeAll(async () => {
    server = await startTestServer()
    pinata = pinataFor(server.url, await server.token())
  })
  afterAll(() => server.close())

  it("upload.public.file - multipart upload gets Kubo's CID and the full upload record", async () => {
    const result = await pinata.upload.public.file(new File([HELLO], 'hello.txt', { type: 'text/plain' }))
    expect(result).toMatchObject({
      id: expect.any(String),
      name: 'hello.txt',
      cid: HELLO_WORLD_CID,
      size: 11,
      number_of_files: 1,
      mime_type: 'text/plain',
      group_id: null,
      keyvalues: {},
      network: 'public',
      created_at: expect.any(String),
    })
    expect(await pinata.files.public.get(result.id)).toMatchObject({ cid: HELLO_WORLD_CID, name: 'hello.txt' })
  })

  it('upload.public.file - .cidVersion("v0") gives the CIDv0 and .name/.keyvalues/.group are applied', async () => {
    const group = await pinata.groups.public.create({ name: 'sdk-upload-group' })
    const result = await pinata.upload.public
      .file(new File([HELLO], 'hello.txt', { type: 'text/plain' }))
      .cidVersion('v0')
      .name('greeting')
      .keyvalues({ lang: 'en' })
      .group(group.id)
    expect(result.cid).toBe(await kuboCid(HELLO, 'v0'))
    expect(result.cid).toMatch(/^Qm/)
    expect(result).toMatchObject({ name: 'greeting', keyvalues: { lang: 'en' }, group_id: group.id })
  })

  it('upload.private.file - lands on the private network with bytes readable through the private gateway', async () => {
    const bytes = patternBytes(1_000_000, 3)
    const result = await pinata.upload.private.file(new File([bytes], 'private.bin')).keyvalues({ kind: 'secret' })
    expect(result).toMatchObject({ network: 'private', size: bytes.length, keyvalues: { kind: 'secret' } })
    expect(result.cid).toBe(await kuboCid(bytes))
    const got = await pinata.gateways.private.get(result.cid)
    expect((await bytesOf(got.data)).equals(bytes)).toBe(true)
    await expect(pinata.files.public.get(result.id)).rejects.toMatchObject({ statusCode: 404 })
  })

  it('upload.public.json / upload.private.json - uploads the JSON text as data.json', async () => {
    const value = { hello: 'world', n: [1, 2, 3] }
    const bytes = new TextEncoder().encode(JSON.stringify(value))
    const pub = await pinata.upload.public.json(value).keyvalues({ format: 'json' })
    expect(pub).toMatchObject({ name: 'data.json', mime_type: 'application/json', size: bytes.length })
    expect(pub.keyvalues).toEqual({ format: 'json' })
    expect(pub.cid).toBe(await kuboCid(bytes))
    const priv = await pinata.upload.private.json(value).name('named.json')
    expect(priv).toMatchObject({ name: 'named.json', network: 'private', cid: pub.cid })
  })

  it('upload.public.base64 / upload.private.base64 - decodes and stores the bytes', async () => {
    const encoded = Buffer.from(HELLO).toString('base64')
    const pub = await pinata.upload.public.base64(encoded)
    expect(pub).toMatchObject({ cid: HELLO_WORLD_CID, size: 11, name: 'base64 string' })
    // the SDK's base64() forwards name, group and keyvalues only (not cid_version)
    const priv = await pinata.upload.private.base64(encoded).name('b64.txt').keyvalues({ enc: 'b64' })
    expect(priv).toMatchObject({ cid: HELLO_WORLD_CID, name: 'b64.txt', network: 'private', keyvalues: { enc: 'b64' } })
  })

  it('upload.private.file(file, {expires_at}) - the expiry given in the options object is stored', async () => {
    const expiresAt = Math.floor(Date.now() / 1000) + 3600
    const result = await pinata.upload.private.file(new File(['expiring'], 'exp.txt'), { expires_at: expiresAt })
    expect(await pinata.files.private.get(result.id)).toMatchObject({ expires_at: expiresAt })
  })

  it("upload.public.file().key(jwt) - the upload lands in the key's tenant", async () => {
    const bob = await server.token({ sub: 'bob', org: 'bobs-org' })
    const result = await pinata.upload.public.file(new File(['for bob'], 'bob.txt')).key(bob)
    expect((await pinataFor(server.url, bob).files.public.get(result.id)).id).toBe(result.id)
    await expect(pinata.files.public.get(result.id)).rejects.toMatchObject({ statusCode: 404 })
  })

  it('upload.public.file().car() - imports a CAR and records its root, the same CID as the original', async () => {
    const bytes = patternBytes(600_000, 5)
    const original = await pinata.upload.public.file(new File([bytes], 'orig.bin'))
    const car = await fetch(`${server.url}/ipfs/${original.cid}?format=car`)
    expect(car.status).toBe(200)
    const carBytes = new Uint8Array(await car.arrayBuffer())
    const bob = pinataFor(server.url, await server.token({ sub: 'carl', org: 'car-org' }))
    const imported = await bob.upload.public
      .file(new File([carBytes], 'orig.car', { type: 'application/vnd.ipld.car' }))
      .car()
    expect(imported).toMatchObject({ cid: original.cid, size: expect.any(Number) })
    expect((await bytesOf((await bob.gateways.public.get(imported.cid)).data)).equals(bytes)).toBe(true)
  })

  it('upload.public.url - the SDK fetches the URL itself and uploads what it got', async () => {
    const source = await pinata.upload.public.file(new File(['fetched by the sdk'], 'src.txt', { type: 'text/plain' }))
    const result = await pinata.upload.public.url(`${server.url}/ipfs/${source.cid}`).name('copy.txt')
    expect(result).toMatchObject({ cid: source.cid, name: 'copy.txt' })
  })

  it("upload.public.fileArray - pins a folder through the legacy endpoint with Kubo's directory CID", async () => {
    const result = await pinata.upload.public.fileArray(planets()).name('planets').keyvalues({ kind: 'folder' })
    expect(result).toMatchObject({
      cid: PLANETS_V1,
      name: 'planets',
      number_of_files: 2,
      mime_type: 'directory',
      keyvalues: { kind: 'folder' },
      network: 'public',
    })
    const mars = await fetch(`${server.url}/ipfs/${result.cid}/mars.txt`)
    expect(await mars.text()).toBe('Hello Mars!\n')
  })

  it("SDK - upload.public.fileArray pins a folder through the legacy endpoint with Kubo's CID", async () => {
    const pinata = new PinataSDK({
      pinataJwt: await server.token(),
      endpointUrl: `${server.url}/v3`,
      uploadUrl: `${server.url}/v3`,
      legacyUploadUrl: `${server.url}/pinning/pinFileToIPFS`,
    })
    const files = [new File(['Hello Mars!\n'], 'mars.txt'), new File(['Hello Venus!\n'], 'venus.txt')]
    const result = await pinata.upload.public.fileArray(files).name('planets')
    expect(result.cid).toBe(directoryVector('dir planets (ipfs add -r planets)').cidv1)
    expect(result).toMatchObject({ name: 'planets', number_of_files: 2, mime_type: 'directory' })
  })

  it('createSignedURL then upload.public.file().url() - uploads without the JWT, baked-in name/keyvalues/group apply', async () => {
    const group = await pinata.groups.public.create({ name: 'sdk-signed-group' })
    const signed = await pinata.upload.public.createSignedURL({
      expires: 60,
      name: 'signed-name.txt',
      keyvalues: { via: 'signed' },
      groupId: group.id,
    })
    expect(signed).toMatch(new RegExp(`^${server.url}/v3/files/[0-9a-f-]{36}\\?`))
    const anonymous = pinataFor(server.url, '')
    const result = await anonymous.upload.public
      .file(new File([HELLO], 'client-name.txt', { type: 'text/plain' }))
      .url(signed)
    expect(result).toMatchObject({
      cid: HELLO_WORLD_CID,
      name: 'signed-name.txt',
      keyvalues: { via: 'signed' },
      group_id: group.id,
      network: 'public',
    })
    expect(await pinata.files.public.get(result.id)).toMatchObject({ group_id: group.id })
  })

  it('createSignedURL then upload.private.json().url() - the headerless JSON upload lands privately', async () => {
    const signed = await pinata.upload.private.createSignedURL({ expires: 60 })
    const result = await pinataFor(server.url, '').upload.private.json({ signed: true }).url(signed)
    expect(result).toMatchObject({ name: 'data.json', network: 'private' })
    expect(result.cid).toBe(await kuboCid(new TextEncoder().encode('{"signed":true}')))
    expect(await pinata.files.private.get(result.id)).toMatchObject({ cid: result.cid })
  })

  it('createSignedURL - maxFileSize and mimeTypes are enforced on the upload', async () => {
    const small = await pinata.upload.public.createSignedURL({ expires: 60, maxFileSize: 5 })
    expect(await pinata.upload.public.file(new File(['12345'], 'ok.txt')).url(small)).toMatchObject({ size: 5 })
    await expect(pinata.upload.public.file(new File([HELLO], 'big.txt')).url(small)).rejects.toMatchObject({
      statusCode: 413,
    })
    const imagesOnly = await pinata.upload.public.createSignedURL({ expires: 60, mimeTypes: ['image/*'] })
    await expect(
      pinata.upload.public.file(new File([HELLO], 'a.txt', { type: 'text/plain' })).url(imagesOnly),
    ).rejects.toMatchObject({ statusCode: 400 })
    // a real PNG: the URL's types are checked against the bytes' signature too
    const png = new File([pngBytes()], 'a.png', { type: 'image/png' })
    expect(await pinata.upload.public.file(png).url(imagesOnly)).toMatchObject({ mime_type: 'image/png' })
  })

  it("createSignedURL({forDirectory}) then upload.public.fileArray().url() - folder with Kubo's CID", async () => {
    const signed = await pinata.upload.public.createSignedURL({ expires: 60, forDirectory: true })
    const result = await pinataFor(server.url, '').upload.public.fileArray(planets()).name('planets').url(signed)
    expect(result).toMatchObject({ cid: PLANETS_V1, name: 'planets', number_of_files: 2, mime_type: 'directory' })

    const filesOnly = await pinata.upload.public.createSignedURL({ expires: 60, mimeTypes: ['text/plain'] })
    await expect(pinata.upload.public.fileArray(planets()).name('planets').url(filesOnly)).rejects.toMatchObject({
      statusCode: 400,
    })
  })

  it('upload.public.file - above 94,371,840 bytes takes the tus path; CID equals a local import of the bytes', async () => {
    const size = 94_371_841 + 1_000
    const bytes = patternBytes(size, 42)
    const expected = await kuboCid(bytes)
    const result = await pinata.upload.public
      .file(new File([bytes], 'big.bin', { type: 'application/octet-stream' }))
      .keyvalues({ path: 'tus' })
    expect(result).toMatchObject({ cid: expected, name: 'big.bin', size, keyvalues: { path: 'tus' } })
    expect(await pinata.files.public.get(result.id)).toMatchObject({ cid: expected, size })
  }, 90_000)

  it('createSignedURL then upload.private.file().cidVersion("v0").url() above 90 MiB - tus on the signed URL, CIDv0', async () => {
    const group = await pinata.groups.private.create({ name: 'sdk-big-files' })
    const signed = await pinata.upload.private.createSignedURL({
      expires: 120,
      groupId: group.id,
      name: 'big-signed.bin',
    })
    const size = 94_371_841
    const bytes = patternBytes(size, 99)
    const expected = await kuboCid(bytes, 'v0')
    const result = await pinataFor(server.url, '')
      .upload.private.file(new File([bytes], 'client.bin'))
      .cidVersion('v0')
      .url(signed)
    // without a JWT the SDK cannot look the record up after tus: it returns only the CID and size
    expect(result).toMatchObject({ cid: expected, size })
    const stored = await pinata.files.private.list().cid(expected)
    expect(stored.files).toHaveLength(1)
    expect(stored.files[0]).toMatchObject({ size, name: 'big-signed.bin', group_id: group.id })
  }, 90_000)
})
