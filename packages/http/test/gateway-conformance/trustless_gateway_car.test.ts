import { readVerifiedCar } from '@pinfold/testing/gateway'
import {
  type ConformanceGateway,
  conformanceScore,
  type FixtureCar,
  openFixtureCar,
  startConformanceGateway,
} from '@pinfold/testing/gateway-conformance'
import { afterAll, beforeAll, describe, expect } from 'vitest'

/**
 * gateway-conformance `tests/trustless_gateway_car_test.go`, the CAR variants (IPIP-412, IPIP-523):
 * `TestTrustlessCarOrderAndDuplicates` and `TestTrustlessCarFormatPrecedence`. Every CAR is read
 * with each block re-hashed against its CID. (Pathing, `dag-scope` and `entity-bytes` are tested
 * on Pinfold's own DAGs in gateway.test.ts and gateway-negotiation.test.ts.)
 */
const score = conformanceScore('trustless_gateway_car_test.go')

let gw: ConformanceGateway
let dups: FixtureCar
let rawBlock: FixtureCar
beforeAll(async () => {
  gw = await startConformanceGateway()
  await gw.loadCar('trustless_gateway_car/dir-with-duplicate-files.car')
  await gw.loadCar('gateway-raw-block.car')
  dups = await openFixtureCar('trustless_gateway_car/dir-with-duplicate-files.car')
  rawBlock = await openFixtureCar('gateway-raw-block.car')
})
afterAll(() => gw.close())

/** The CIDs of a CAR answer's blocks, in order, every block checked against its CID. */
const blockCids = async (body: string) =>
  (await readVerifiedCar(new Uint8Array(Buffer.from(body, 'latin1')))).blocks.map((b) => b.cid.toString())

describe('TestTrustlessCarOrderAndDuplicates', () => {
  const T = 'TestTrustlessCarOrderAndDuplicates'
  // defined by the suite (the fixture's recipe), not by any library
  const MULTIBLOCK = [
    'bafkreie5noke3mb7hqxukzcy73nl23k6lxszxi5w3dtmuwz62wnvkpsscm',
    'bafkreih4ephajybraj6wnxsbwjwa77fukurtpl7oj7t7pfq545duhot7cq',
    'bafkreigu7buvm3cfunb35766dn7tmqyh2um62zcio63en2btvxuybgcpue',
    'bafkreicll3huefkc3qnrzeony7zcfo7cr3nbx64hnxrqzsixpceg332fhe',
    'bafkreifst3pqztuvj57lycamoi7z34b4emf7gawxs74nwrc2c7jncmpaqm',
  ]
  const withDups = async () =>
    [
      dups.root,
      await dups.cid('ascii.txt'),
      await dups.cid('ascii-copy.txt'),
      await dups.cid('hello.txt'),
      await dups.cid('multiblock.txt'),
    ]
      .map(String)
      .concat(MULTIBLOCK)
  const car = (path: string, accept: string) => gw.get(path, { headers: { accept } })

  score.it(T, 'GET CAR with order=dfs and dups=y of UnixFS Directory With Duplicate Files', async () => {
    const res = await car(`/ipfs/${dups.root}`, 'application/vnd.ipld.car; version=1; order=dfs; dups=y')
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toMatch(/application\/vnd\.ipld\.car.*order=dfs.*dups=y/)
    expect(await blockCids(res.body)).toEqual(await withDups())
  })
  score.it(T, 'GET CAR with order=dfs and dups=n of UnixFS Directory With Duplicate Files', async () => {
    const res = await car(`/ipfs/${dups.root}`, 'application/vnd.ipld.car; version=1; order=dfs; dups=n')
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toMatch(/application\/vnd\.ipld\.car.*order=dfs.*dups=n/)
    const once = [...new Set(await withDups())]
    expect(await blockCids(res.body)).toEqual(once)
  })
  score.it(T, 'GET CAR smoke-test with order=unk of UnixFS Directory', async () => {
    const res = await car(`/ipfs/${dups.root}`, 'application/vnd.ipld.car; version=1; order=unk')
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toMatch(/application\/vnd\.ipld\.car.*order=/)
    expect(new Set(await blockCids(res.body))).toEqual(new Set(await withDups()))
  })
  score.it(T, 'GET CAR with order=dfs and dups=y of identity CID', async () => {
    const res = await car('/ipfs/bafkqaf3imvwgy3zaneqgc3janfxgy2lomvscay3jmqfa', 'application/vnd.ipld.car; dups=y')
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toMatch(/application\/vnd\.ipld\.car.*dups=y/)
    expect(await blockCids(res.body)).toEqual([])
  })
  score.it(T, 'GET CAR with ?format=car respects Accept header order and dups params', async () => {
    const res = await car(`/ipfs/${dups.root}?format=car`, 'application/vnd.ipld.car; version=1; order=dfs; dups=y')
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toMatch(/application\/vnd\.ipld\.car.*order=dfs.*dups=y/)
    expect(await blockCids(res.body)).toEqual(await withDups())
  })
  score.it(T, 'GET CAR with ?car-order=dfs takes precedence over order=unk in Accept', async () => {
    const res = await car(`/ipfs/${dups.root}?format=car&car-order=dfs`, 'application/vnd.ipld.car; order=unk')
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toMatch(/application\/vnd\.ipld\.car.*order=dfs/)
  })
  score.it(T, 'GET CAR with ?car-dups=y takes precedence over dups=n in Accept', async () => {
    const res = await car(`/ipfs/${dups.root}?format=car&car-dups=y`, 'application/vnd.ipld.car; dups=n')
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toMatch(/application\/vnd\.ipld\.car.*dups=y/)
  })
})

describe('TestTrustlessCarFormatPrecedence', () => {
  const T = 'TestTrustlessCarFormatPrecedence'
  score.it(T, 'GET with format=car query parameter takes precedence over Accept header', async () => {
    const res = await gw.get(`/ipfs/${await rawBlock.cid('dir')}?format=car`, {
      headers: { accept: 'application/vnd.ipld.raw' },
    })
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toContain('application/vnd.ipld.car')
  })
  score.it(T, 'GET with format=raw query parameter takes precedence over Accept header', async () => {
    const res = await gw.get(`/ipfs/${await rawBlock.cid('dir')}?format=raw`, {
      headers: { accept: 'application/vnd.ipld.car' },
    })
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe('application/vnd.ipld.raw')
  })
})
