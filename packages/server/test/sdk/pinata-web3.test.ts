import { Readable } from 'node:stream'
import { CID_SIGNATURE_DOMAIN, CID_SIGNATURE_TYPES } from '@pinfold/core'
import { PinataSDK } from 'pinata-web3'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../support/server.js'

/**
 * The older official SDK, `pinata-web3` 0.5.4, over its whole surface against a real server: it
 * speaks only Pinata's legacy API (`/pinning/…`, `/data/…`, `/groups…`, `/v3/ipfs/…`). It takes
 * the server in `endpointUrl` (no `/v3`); the gateway is set after construction, as the constructor
 * turns `http://…` into `https://http://…`. Its list and analytics builders pass no `onrejected`
 * on, so awaiting one that fails never settles: failures are read through `outcome`, which calls
 * their `then` and keeps the promise it returns.
 */

const NOWHERE = 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy'

/** A builder's result as a real promise (its own `then` drops `onrejected`). */
const outcome = <T>(builder: { then(onfulfilled: (value: T) => T): Promise<T> }) => builder.then((value) => value)

/** The SDK's `File`-like input (`FileObject`), from text. */
const fileOf = (text: string, name: string, type = 'text/plain') => new File([text], name, { type })

describe('pinata-web3 0.5.4 - the legacy API', () => {
  let server: TestServer
  let pinata: PinataSDK
  const sdkFor = (jwt: string) => {
    const sdk = new PinataSDK({ pinataJwt: jwt, endpointUrl: server.url })
    sdk.config!.pinataGateway = server.url
    return sdk
  }

  beforeAll(async () => {
    server = await startTestServer({ PINFOLD_PIN_POLL_MS: '0' }, { storage: 'memory' })
    pinata = sdkFor(await server.token({ org: 'web3' }))
  })
  afterAll(() => server?.close())

  it('testAuthentication, setNewJwt, setNewHeaders', async () => {
    expect(await pinata.testAuthentication()).toEqual({
      message: 'Congratulations! You are communicating with the Pinata API!',
    })
    const other = sdkFor('not-a-token')
    await expect(other.testAuthentication()).rejects.toMatchObject({ statusCode: 401 })
    other.setNewJwt(await server.token({ org: 'web3' }))
    expect((await other.testAuthentication()).message).toMatch(/Congratulations/)
    // with custom headers set, the SDK sends only those on testAuthentication (a proxy's own auth)
    other.setNewHeaders({ Authorization: `Bearer ${await server.token({ org: 'web3' })}`, 'x-trace': 'sdk' })
    expect((await other.testAuthentication()).message).toMatch(/Congratulations/)
  })

  it('upload.file / json / base64 / stream / url / fileArray - pinned on public IPFS, the answer unwrapped', async () => {
    const group = await pinata.groups.create({ name: 'uploads' })
    const file = await pinata.upload
      .file(fileOf('hello from pinata-web3', 'hello.txt'))
      .addMetadata({ name: 'hello', keyValues: { via: 'file' } })
      .group(group.id)
      .cidVersion(0)
    expect(file).toMatchObject({ IpfsHash: expect.stringMatching(/^Qm/), PinSize: 22, isDuplicate: false })
    expect(await (await fetch(`${server.url}/ipfs/${file.IpfsHash}`)).text()).toBe('hello from pinata-web3')

    // .key(): another credential for this one upload (here another account's token)
    const json = await pinata.upload
      .json({ hello: 'json' })
      .addMetadata({ name: 'doc', keyValues: { via: 'json' } })
      .key(await server.token({ org: 'web3-other' }))
    expect(json.IpfsHash).toMatch(/^bafk/) // the SDK asks for CIDv1 unless told otherwise
    expect(await (await fetch(`${server.url}/ipfs/${json.IpfsHash}`)).json()).toEqual({ hello: 'json' })
    expect(await pinata.listFiles().cid(json.IpfsHash)).toEqual([]) // not this account's file
    expect(
      await sdkFor(await server.token({ org: 'web3-other' }))
        .listFiles()
        .cid(json.IpfsHash),
    ).toHaveLength(1)

    const base64 = await pinata.upload.base64(Buffer.from('from base64').toString('base64'))
    expect(await (await fetch(`${server.url}/ipfs/${base64.IpfsHash}`)).text()).toBe('from base64')

    const stream = await pinata.upload.stream(Readable.from([Buffer.from('streamed '), Buffer.from('bytes')]))
    expect(await (await fetch(`${server.url}/ipfs/${stream.IpfsHash}`)).text()).toBe('streamed bytes')

    const fromUrl = await pinata.upload.url(`${server.url}/ipfs/${file.IpfsHash}`)
    expect(await (await fetch(`${server.url}/ipfs/${fromUrl.IpfsHash}`)).text()).toBe('hello from pinata-web3')

    const folder = await pinata.upload.fileArray([fileOf('one', 'one.txt'), fileOf('two', 'two.txt')])
    expect(await (await fetch(`${server.url}/ipfs/${folder.IpfsHash}/two.txt`)).text()).toBe('two')
  })

  it('upload.cid and pinJobs - a pin-by-CID request, listed with the legacy filters, then unpinned', async () => {
    const peer = '/ip4/127.0.0.1/tcp/4001/p2p/12D3KooWGRUVh8ZmaFDsg6UKaRv9bCZNwmtRJ3bmQf3xs2AB4qnE'
    // the builder's peerAddress applies only when the options object names peerAddresses
    const queued = await pinata.upload
      .cid(NOWHERE, { peerAddresses: [] })
      .addMetadata({ name: 'far away', keyValues: { k: 'v' } })
      .peerAddress([peer])
    expect(queued).toEqual({ id: expect.any(String), ipfsHash: NOWHERE, status: 'prechecking', name: 'far away' })
    const jobs = await pinata.pinJobs().cid(NOWHERE).status('prechecking').sort('ASC').pageLimit(5)
    expect(jobs).toMatchObject([
      { id: queued.id, ipfs_pin_hash: NOWHERE, status: 'prechecking', name: 'far away', host_nodes: [peer] },
    ])
    expect(await pinata.pinJobs().cid(NOWHERE).pageOffset(1)).toEqual([])
    expect((await pinata.pinJobs().cid(NOWHERE).all()).map((j) => j.id)).toEqual([queued.id])
    expect(await pinata.unpin([NOWHERE])).toEqual([{ hash: NOWHERE, status: 'OK' }])
    expect(await pinata.pinJobs().cid(NOWHERE)).toEqual([])
    await expect(outcome(pinata.pinJobs().pageLimit(0).pageOffset(-1))).rejects.toMatchObject({ statusCode: 400 })
  })

  it('listFiles - filters, keyvalue operators and paging; updateMetadata merges; unpin answers OK', async () => {
    const sdk = sdkFor(await server.token({ org: 'web3-list' }))
    const pinned = []
    for (const [name, level] of [
      ['alpha.txt', '1'],
      ['beta.txt', '5'],
      ['gamma.txt', '9'],
    ] as const) {
      pinned.push(await sdk.upload.file(fileOf(`content of ${name}`, name)).addMetadata({ name, keyValues: { level } }))
    }
    const names = (rows: { metadata: { name: string | null } }[]) => rows.map((r) => r.metadata.name)
    expect(names(await sdk.listFiles())).toEqual(['gamma.txt', 'beta.txt', 'alpha.txt'])
    expect(names(await sdk.listFiles().keyValue('level', 4, 'gt'))).toEqual(['gamma.txt', 'beta.txt'])
    expect(names(await sdk.listFiles().keyValue('level', '5'))).toEqual(['beta.txt'])
    expect(names(await sdk.listFiles().name('GAMMA'))).toEqual(['gamma.txt'])
    expect(names(await sdk.listFiles().cid(pinned[0]!.IpfsHash))).toEqual(['alpha.txt'])
    // 'content of beta.txt' is 19 bytes, the others 20
    expect(names(await sdk.listFiles().pinSizeMin(20))).toEqual(['gamma.txt', 'alpha.txt'])
    expect(names(await sdk.listFiles().pinSizeMin(1).pinSizeMax(19))).toEqual(['beta.txt'])
    expect(names(await sdk.listFiles().pinStart(new Date(Date.now() + 60_000).toISOString()))).toEqual([])
    expect(names(await sdk.listFiles().pinEnd(new Date(Date.now() + 60_000).toISOString()))).toHaveLength(3)
    expect(names(await sdk.listFiles().pageLimit(1).pageOffset(1))).toEqual(['beta.txt'])
    expect(names(await sdk.listFiles().pageLimit(2).all())).toEqual(['gamma.txt', 'beta.txt', 'alpha.txt'])
    const group = await sdk.groups.create({ name: 'listed' })
    await sdk.groups.addCids({ groupId: group.id, cids: [pinned[1]!.IpfsHash] })
    expect(names(await sdk.listFiles().group(group.id))).toEqual(['beta.txt'])
    await expect(outcome(sdk.listFiles().keyValue('level', 1, 'regexp'))).rejects.toMatchObject({ statusCode: 400 })

    expect(
      await sdk.updateMetadata({ cid: pinned[0]!.IpfsHash, name: 'renamed.txt', keyValues: { extra: 'yes' } }),
    ).toBe('OK')
    const [renamed] = await sdk.listFiles().cid(pinned[0]!.IpfsHash)
    expect(renamed!.metadata).toEqual({ name: 'renamed.txt', keyvalues: { level: '1', extra: 'yes' } })
    await expect(sdk.updateMetadata({ cid: NOWHERE, name: 'x' })).rejects.toMatchObject({ statusCode: 404 })

    expect(await sdk.unpin([pinned[2]!.IpfsHash, NOWHERE])).toEqual([
      { hash: pinned[2]!.IpfsHash, status: 'OK' },
      { hash: NOWHERE, status: 'HTTP error: {"error":"pin of this CID not found"}' },
    ])
    expect(names(await sdk.listFiles())).toEqual(['beta.txt', 'renamed.txt'])
  })

  it('groups - create, get, update, list (name, offset, limit, all), add and remove CIDs, delete', async () => {
    const sdk = sdkFor(await server.token({ org: 'web3-groups' }))
    const created = await sdk.groups.create({ name: 'Photos' })
    expect(created).toEqual({
      id: expect.any(String),
      user_id: 'web3-groups',
      name: 'Photos',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    })
    expect(await sdk.groups.get({ groupId: created.id })).toEqual(created)
    expect(await sdk.groups.update({ groupId: created.id, name: 'Holiday photos' })).toMatchObject({
      id: created.id,
      name: 'Holiday photos',
    })
    await sdk.groups.create({ name: 'Documents' })
    await sdk.groups.create({ name: 'work photos' })
    const names = (groups: { name: string }[]) => groups.map((g) => g.name)
    expect(names(await sdk.groups.list())).toEqual(['work photos', 'Documents', 'Holiday photos'])
    expect(names(await sdk.groups.list().name('photos'))).toEqual(['work photos', 'Holiday photos'])
    expect(names(await sdk.groups.list().limit(1).offset(1))).toEqual(['Documents'])
    expect(names(await sdk.groups.list().limit(2).all())).toHaveLength(3)

    const photo = await sdk.upload.file(fileOf('a photo', 'photo.jpg', 'image/jpeg'))
    expect(await sdk.groups.addCids({ groupId: created.id, cids: [photo.IpfsHash] })).toBe('OK')
    expect((await sdk.listFiles().group(created.id)).map((r) => r.ipfs_pin_hash)).toEqual([photo.IpfsHash])
    expect(await sdk.groups.removeCids({ groupId: created.id, cids: [photo.IpfsHash] })).toBe('OK')
    expect(await sdk.listFiles().group(created.id)).toEqual([])
    expect(await sdk.groups.delete({ groupId: created.id })).toBe('OK')
    await expect(sdk.groups.get({ groupId: created.id })).rejects.toMatchObject({ statusCode: 404 })
    await expect(outcome(sdk.groups.list().limit(0))).rejects.toMatchObject({ statusCode: 400 })
  })

  it('gateways - get (optimizeImage), convert, containsCID, swapCid, swapHistory, deleteSwap', async () => {
    const a = await pinata.upload.file(fileOf('swap source', 'a.txt'))
    const b = await pinata.upload.file(fileOf('swap target', 'b.txt'))
    expect(await pinata.gateways.get(a.IpfsHash)).toEqual({ data: 'swap source', contentType: 'text/plain' })
    // img-* options on something that is not an image: served as it is
    const optimized = await pinata.gateways.get(a.IpfsHash).optimizeImage({ width: 10 })
    expect(optimized).toEqual({ data: 'swap source', contentType: 'text/plain' })
    expect(await pinata.gateways.convert(`ipfs://${a.IpfsHash}`)).toBe(`${server.url}/ipfs/${a.IpfsHash}`)
    expect(await pinata.gateways.containsCID(`https://x.example/ipfs/${a.IpfsHash}`)).toEqual({
      containsCid: true,
      cid: a.IpfsHash,
    })

    const swap = await pinata.gateways.swapCid({ cid: a.IpfsHash, swapCid: b.IpfsHash })
    expect(swap).toEqual({ mappedCid: b.IpfsHash, createdAt: expect.any(String) })
    expect(await pinata.gateways.swapHistory({ cid: a.IpfsHash, domain: 'gw.example' })).toEqual([swap])
    expect(await pinata.gateways.deleteSwap(a.IpfsHash)).toBe('OK')
    await expect(pinata.gateways.deleteSwap(a.IpfsHash)).rejects.toMatchObject({ statusCode: 404 })
    await expect(pinata.gateways.swapCid({ cid: NOWHERE, swapCid: b.IpfsHash })).rejects.toMatchObject({
      statusCode: 404,
    })
  })

  it('gateways - topUsageAnalytics and dateIntervalAnalytics answer the analytics of the tenant', async () => {
    const day = new Date().toISOString().slice(0, 10)
    const top = await pinata.gateways.topUsageAnalytics({
      domain: 'gw.example',
      start: day,
      end: day,
      sortBy: 'requests',
      attribute: 'cid',
    })
    expect(Array.isArray(top)).toBe(true)
    const series = await pinata.gateways.dateIntervalAnalytics({
      domain: 'gw.example',
      start: day,
      end: day,
      interval: 'day',
    })
    expect(series).toMatchObject({ total_requests: expect.any(Number), time_periods: expect.any(Array) })
    const bad = pinata.gateways.topUsageAnalytics({
      domain: 'x',
      start: 'soon',
      end: day,
      sortBy: 'requests',
      attribute: 'cid',
    })
    await expect(outcome(bad)).rejects.toMatchObject({ statusCode: 400 })
  })

  it('signatures - add needs the signer’s address, which the SDK does not send (400); get and delete work', async () => {
    const file = await pinata.upload.file(fileOf('signed by web3', 'signed.txt'))
    const [row] = await pinata.listFiles().cid(file.IpfsHash)
    const account = privateKeyToAccount(generatePrivateKey())
    const signature = await account.signTypedData({
      domain: CID_SIGNATURE_DOMAIN,
      types: CID_SIGNATURE_TYPES,
      primaryType: 'Sign',
      message: { address: account.address, cid: file.IpfsHash, date: row!.date_pinned },
    })
    await expect(pinata.signatures.add({ cid: file.IpfsHash, signature })).rejects.toMatchObject({ statusCode: 400 })
    // the same route given the address (what the SDK would need to send)
    const token = await server.token({ org: 'web3' })
    const added = await fetch(`${server.url}/v3/ipfs/signature/${file.IpfsHash}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ signature, address: account.address }),
    })
    expect(added.status).toBe(200)
    expect(await pinata.signatures.get(file.IpfsHash)).toEqual({ cid: file.IpfsHash, signature })
    expect(await pinata.signatures.delete(file.IpfsHash)).toBe('OK')
    await expect(pinata.signatures.get(file.IpfsHash)).rejects.toMatchObject({ statusCode: 404 })
  })

  it('usage and keys - pinnedFileCount, totalStorageSize; keys.create (admin), list, revoke', async () => {
    const sdk = sdkFor(await server.token({ org: 'web3-keys' }))
    await sdk.upload.file(fileOf('x'.repeat(300), 'x.txt'))
    expect(await sdk.usage.pinnedFileCount()).toBe(1)
    expect(await sdk.usage.totalStorageSize()).toBe(300)

    const key = await sdk.keys.create({ keyName: 'web3 admin', permissions: { admin: true }, maxUses: 100 })
    expect(key).toEqual({
      JWT: expect.any(String),
      pinata_api_key: expect.any(String),
      pinata_api_secret: expect.any(String),
    })
    const byKey = sdkFor(key.JWT)
    expect(await byKey.usage.pinnedFileCount()).toBe(1)
    const scoped = await sdk.keys.create({
      keyName: 'json only',
      permissions: { endpoints: { pinning: { pinJSONToIPFS: true } } },
    })
    expect((await sdkFor(scoped.JWT).upload.json({ ok: true })).IpfsHash).toBeTruthy()
    await expect(outcome(sdkFor(scoped.JWT).groups.list())).rejects.toMatchObject({ statusCode: 403 })

    const listed = await sdk.keys.list().name('web3 admin')
    expect(listed).toMatchObject([{ name: 'web3 admin', key: key.pinata_api_key, max_uses: 100, revoked: false }])
    expect((await sdk.keys.list().limitedUse(true)).map((k) => k.name)).toEqual(['web3 admin'])
    expect(await sdk.keys.revoke([key.pinata_api_key])).toEqual([{ key: key.pinata_api_key, status: 'Revoked' }])
    expect((await sdk.keys.list().revoked(true)).map((k) => k.name)).toEqual(['web3 admin'])
    await expect(byKey.testAuthentication()).rejects.toMatchObject({ statusCode: 401 })
  })
})
