import { describe, expect, it } from 'vitest'
import { CAR_MIME_TYPE, DIRECTORY_MIME_TYPE, type GatewayEntry, type UploadOptions } from '../../src/index.js'
import {
  alice,
  concat,
  createTestService,
  fileItem,
  itemsOf,
  mallory,
  storedNothing,
  uploadFile,
  uploadFolder,
  utf8,
} from '../support/test-service.js'

/** Kubo's `ipfs add -r planets` (t0040-add-and-cat.sh), with and without `--cid-version=1`. */
const PLANETS = { 'planets/mars.txt': 'Hello Mars!\n', 'planets/venus.txt': 'Hello Venus!\n' }
const PLANETS_CID = {
  v0: 'QmWSgS32xQEcXMeqd3YPJLrNBLSdsfYCep2U7CFkyrjXwY',
  v1: 'bafybeih7e5dmkyk25up5vxug4q3hrg2fxbzf23dfrac2fns5h7z4aa7ioi',
}
const MARS_V1 = 'bafkreibmlvvgdyihetgocpof6xk64kjjzdeq2e4c7hqs3krdheosk4tgj4'

/** Kubo's `ipfs add -r moons`: nested directories. */
const MOONS = {
  'moons/jupiter/europa.txt': 'Hello Europa!\n',
  'moons/saturn/titan.txt': 'Hello Titan!\n',
  'moons/mercury.txt': 'hey you are no moon!\n',
}
const MOONS_V0 = 'QmbGoaQZm8kjYfCiN1aBsgwhqfUBGDYTrDb91Mz7Dvq81B'

function expectType<T extends GatewayEntry['type']>(entry: GatewayEntry, type: T): Extract<GatewayEntry, { type: T }> {
  if (entry.type !== type) throw new Error(`expected a ${type}, got a ${entry.type}`)
  return entry as Extract<GatewayEntry, { type: T }>
}

/** The CARv1 the gateway serves for a public folder, built in a service of its own. */
async function folderCar(files: Record<string, string>, options: Partial<UploadOptions> = {}) {
  const { service } = createTestService()
  const { file } = await uploadFolder(service, alice, files, { network: 'public', ...options })
  const { stream } = await service.gateway.car(await service.gateway.resolve({ kind: 'public' }, file.cid), [])
  return { cid: file.cid, car: await concat(stream) }
}

const uploadCar = (test: ReturnType<typeof createTestService>, car: Uint8Array, options: Partial<UploadOptions> = {}) =>
  uploadFile(test.service, alice, car, { network: 'public', car: true, ...options }, { path: 'dag.car' })

describe('folder uploads', () => {
  it("upload - a folder gets Kubo's directory CID; a CID version sent after the files re-imports it", async () => {
    const test = createTestService()
    const v1 = await uploadFolder(test.service, alice, PLANETS)
    expect(v1.file).toMatchObject({
      cid: PLANETS_CID.v1,
      name: 'planets',
      mimeType: DIRECTORY_MIME_TYPE,
      numberOfFiles: 2,
    })
    const v0 = await uploadFolder(test.service, alice, PLANETS, { cidVersion: 'v0' })
    expect(v0.file.cid).toBe(PLANETS_CID.v0)
    // the v1 staging of the re-imported upload is gone: one CAR per stored folder
    expect(test.blobs.count).toBe(2)
    expect((await uploadFolder(test.service, alice, MOONS, { cidVersion: 'v0' })).file.cid).toBe(MOONS_V0)
  })

  it('upload - options may come first; name, keyvalues and group apply to the folder', async () => {
    const { service } = createTestService()
    const group = await service.groups.create(alice, 'private', { name: 'space' })
    const options = { name: 'solar system', keyvalues: { kind: 'planets' }, groupId: group.id }
    const items = Object.entries(PLANETS).map(([path, text]) => fileItem(path, text))
    const { file } = await service.files.upload(alice, itemsOf({ kind: 'options', options }, ...items))
    expect(file).toMatchObject({ cid: PLANETS_CID.v1, ...options })
  })

  it("gateway - a public folder lists its entries and serves each file under Kubo's file CID", async () => {
    const { service } = createTestService()
    const { file } = await uploadFolder(service, alice, PLANETS, { network: 'public' })
    const root = await service.gateway.resolve({ kind: 'public' }, file.cid)
    const listing = []
    for await (const item of expectType(await service.gateway.entry(root, []), 'directory').list()) {
      listing.push([item.name, item.cid.toString()])
    }
    expect(listing.map(([name]) => name)).toEqual(['mars.txt', 'venus.txt'])
    expect(listing[0]![1]).toBe(MARS_V1)
    const mars = expectType(await service.gateway.entry(root, ['mars.txt']), 'file')
    expect(new TextDecoder().decode(await concat(await mars.read()))).toBe('Hello Mars!\n')
    // a file inside the folder is a block like any other: addressable on its own
    const direct = await service.gateway.resolve({ kind: 'public' }, MARS_V1)
    expect((await service.gateway.block(direct, [])).bytes).toEqual(utf8('Hello Mars!\n'))
    await expect(service.gateway.entry(root, ['pluto.txt'])).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })

  it('upload - a top directory named with blanks keeps its UnixFS name; the record gets the default name', async () => {
    const { service } = createTestService()
    const { file } = await uploadFolder(service, alice, { ' /a.txt': 'a' }, { network: 'public' })
    expect(file.name).toBe('folder')
    const listing = await service.gateway.entry(await service.gateway.resolve({ kind: 'public' }, file.cid), [])
    expect(listing.type).toBe('directory')
  })

  it('upload - identical folders are stored once; deleting the last one removes the CAR', async () => {
    const test = createTestService()
    const first = await uploadFolder(test.service, alice, PLANETS)
    const second = await uploadFolder(test.service, alice, PLANETS)
    const other = await uploadFolder(test.service, mallory, PLANETS)
    expect([second.isDuplicate, other.isDuplicate]).toEqual([true, false])
    expect(test.blobs.count).toBe(1)
    for (const [actor, { file }] of [
      [alice, first],
      [alice, second],
      [mallory, other],
    ] as const) {
      await test.service.files.delete(actor, 'private', file.id)
    }
    expect(test.blobs.count).toBe(0)
  })

  it.each([
    ['files under two top directories', { 'a/x.txt': 'x', 'b/y.txt': 'y' }],
    ['a file beside the folder', { 'a/x.txt': 'x', 'y.txt': 'y' }],
    ['a .. segment', { 'a/../x.txt': 'x' }],
    ['an empty segment', { 'a//x.txt': 'x' }],
    ['an absolute path', { '/a/x.txt': 'x' }],
    ['a path that is a file and a directory', { 'a/x': 'x', 'a/x/y': 'y' }],
  ])('upload - %s is INVALID_INPUT and stores nothing', async (_what, files) => {
    const test = createTestService()
    await expect(uploadFolder(test.service, alice, files)).rejects.toMatchObject({ code: 'INVALID_INPUT' })
    expect(await storedNothing(test)).toBe(true)
  })

  it('upload - the same path twice is INVALID_INPUT and stores nothing', async () => {
    const test = createTestService()
    const items = itemsOf(fileItem('a/x.txt', 'x'), fileItem('a/x.txt', 'again'))
    await expect(test.service.files.upload(alice, items)).rejects.toMatchObject({ code: 'INVALID_INPUT' })
    expect(await storedNothing(test)).toBe(true)
  })

  it('upload - the size limit counts every file of a folder', async () => {
    const test = createTestService({ maxUploadBytes: 20 })
    await expect(
      uploadFolder(test.service, alice, { 'a/x': '0123456789', 'a/y': '0123456789!' }),
    ).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE' })
    expect(await storedNothing(test)).toBe(true)
  })

  it('upload - a folder cannot be a CAR upload', async () => {
    const test = createTestService()
    await expect(uploadFolder(test.service, alice, PLANETS, { network: 'public', car: true })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    })
    expect(await storedNothing(test)).toBe(true)
  })
})

describe('CAR uploads', () => {
  it("upload - a CAR's root becomes the file's CID and its blocks are served", async () => {
    const { cid, car } = await folderCar(MOONS, { cidVersion: 'v0' })
    const test = createTestService()
    const { file } = await uploadCar(test, car)
    expect(file).toMatchObject({ cid, mimeType: CAR_MIME_TYPE, numberOfFiles: 1, network: 'public' })
    const root = await test.service.gateway.resolve({ kind: 'public' }, cid)
    const titan = expectType(await test.service.gateway.entry(root, ['saturn', 'titan.txt']), 'file')
    expect(new TextDecoder().decode(await concat(await titan.read()))).toBe('Hello Titan!\n')
  })

  it('upload - a CAR is refused on the private network, storing nothing', async () => {
    const { car } = await folderCar(PLANETS)
    const test = createTestService()
    await expect(uploadCar(test, car, { network: 'private' })).rejects.toMatchObject({ code: 'INVALID_INPUT' })
    expect(await storedNothing(test)).toBe(true)
  })

  it.each([
    ['bytes that are no CAR', () => utf8('hello, not a CAR')],
    ['a block whose bytes do not hash to its CID', (car: Uint8Array) => flipLastByte(car)],
    ['a truncated CAR', (car: Uint8Array) => car.subarray(0, car.length - 5)],
  ])('upload - %s is INVALID_INPUT and stores nothing', async (_what, corrupt) => {
    const { car } = await folderCar(PLANETS)
    const test = createTestService()
    await expect(uploadCar(test, corrupt(car))).rejects.toMatchObject({ code: 'INVALID_INPUT' })
    expect(await storedNothing(test)).toBe(true)
  })
})

/** The CAR with the last byte of its last block changed: the block no longer matches its CID. */
function flipLastByte(car: Uint8Array): Uint8Array {
  const copy = car.slice()
  copy[copy.length - 1]! ^= 0xff
  return copy
}
