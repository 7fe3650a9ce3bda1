import * as dagPb from '@ipld/dag-pb'
import { type Block, bucket, pbBlock, publicCarForm, rawBlock } from '@pinfold/testing/dag-builders'
import { type GatewayTestApi, startGatewayApi } from '@pinfold/testing/gateway'
import { carBytes } from '@pinfold/testing/uploads'
import { UnixFS } from 'ipfs-unixfs'
import { CID } from 'multiformats/cid'
import { sha256 } from 'multiformats/hashes/sha2'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

/**
 * DAGs that are small and hash correctly but describe enormous trees by linking to the same
 * child over and over (issue 16, finding 1). Each must be served with work bounded by its
 * distinct blocks, never expanded in memory.
 */

/** A HAMT of `depth` shard levels, each of 256 links to the same next shard: 256^depth listing entries. */
async function repeatedHamt(depth: number) {
  const leaf = new TextEncoder().encode('x')
  const leafBlock = await rawBlock(leaf)
  const shard = () =>
    new UnixFS({ type: 'hamt-sharded-directory', fanout: 256n, hashType: 0x22n, data: new Uint8Array(32).fill(0xff) })
  let level = await pbBlock(
    shard(),
    Array.from({ length: 256 }, (_, i) => ({ Name: `${bucket(i)}entry-${i}`, Hash: leafBlock.cid, Tsize: 1 })),
  )
  const blocks: Block[] = [leafBlock, level]
  for (let d = 1; d < depth; d++) {
    const child = level
    level = await pbBlock(
      shard(),
      Array.from({ length: 256 }, (_, i) => ({ Name: bucket(i), Hash: child.cid })),
    )
    blocks.push(level)
  }
  return { root: level.cid, car: await carBytes([level.cid], blocks) }
}

/** A UnixFS file of `depth` levels, each node 174 links to the same child: 174^depth bytes of one leaf. */
async function repeatedFile(depth: number) {
  const leaf = new TextEncoder().encode('x')
  let child: Block = await rawBlock(leaf)
  let childSize = 1n
  const blocks: Block[] = [child]
  for (let d = 0; d < depth; d++) {
    const node = await pbBlock(
      new UnixFS({ type: 'file', blockSizes: Array.from({ length: 174 }, () => childSize) }),
      Array.from({ length: 174 }, () => ({ Hash: child.cid, Tsize: Number(childSize) })),
    )
    blocks.push(node)
    child = node
    childSize *= 174n
  }
  return { root: child.cid, car: await carBytes([child.cid], blocks) }
}

describe('adversarial DAGs on the public gateway', () => {
  let server: GatewayTestApi
  beforeAll(async () => {
    server = await startGatewayApi()
  })
  afterAll(() => server.close())

  const uploadCar = async (car: Uint8Array) => {
    expect((await server.api('/v3/files', { method: 'POST', body: publicCarForm(car) })).status).toBe(200)
  }
  const healthy = async () => expect((await server.fetch(`${server.url}/healthz`)).status).toBe(200)

  it('listing - a HAMT whose shards link 256 times to the same shard lists each distinct entry once', async () => {
    const { root, car } = await repeatedHamt(4) // 256^4 = 4.3 billion entries if expanded
    expect(car.length).toBeLessThan(64_000)
    await uploadCar(car)
    const res = await server.fetch(`${server.url}/ipfs/${root}/`)
    expect(res.status).toBe(200)
    const html = await res.text()
    // each name once: as link text, in its href, and in its CID link's ?filename=
    expect(html.match(/entry-\d+/g)?.length).toBe(256 * 3)
    const entity = await server.fetch(`${server.url}/ipfs/${root}?format=car&dag-scope=entity`)
    expect(entity.status).toBe(200)
    expect((await entity.arrayBuffer()).byteLength).toBeLessThan(car.length)
    await healthy()
  })

  it('file - a DAG of 174-fold repeated links (terabytes of one leaf) stops within its work budget', async () => {
    const { root, car } = await repeatedFile(6) // 174^6 ≈ 2.7e13 bytes
    expect(car.length).toBeLessThan(64_000)
    await uploadCar(car)
    for (const query of ['?format=car&dag-scope=entity', '?format=car&entity-bytes=0:*', '']) {
      // the walk is cut off once it has spent its budget: an error answer, or a body that ends early
      const read = await server
        .fetch(`${server.url}/ipfs/${root}${query}`)
        .then((res) => res.arrayBuffer())
        .then(
          (body) => body.byteLength,
          () => -1,
        )
      expect(read, query).toBeLessThan(64 * 1024 * 1024)
      await healthy()
    }
  })

  it('file - a DAG that spends its work budget before 64 KiB went out answers 422, not a 200 cut short', async () => {
    const { root, car } = await repeatedFile(3) // 4 distinct blocks, 174^3 references to one 1-byte leaf
    await uploadCar(car)
    for (const query of ['?format=car&dag-scope=entity', '']) {
      const res = await server.fetch(`${server.url}/ipfs/${root}${query}`)
      expect(res.status, query).toBe(422)
      expect(await res.json()).toMatchObject({ error: expect.stringContaining('too often') })
    }
    await healthy()
  })

  it('malformed - a dag-pb root whose Data is not UnixFS answers 422, not a server error', async () => {
    const bytes = dagPb.encode({ Data: Uint8Array.from([0xff, 0xff, 0xff, 0x01]), Links: [] })
    const cid = CID.createV1(dagPb.code, await sha256.digest(bytes))
    await uploadCar(await carBytes([cid], [{ cid, bytes }]))
    const res = await server.fetch(`${server.url}/ipfs/${cid}`)
    expect(res.status).toBe(422)
    expect(await res.json()).toMatchObject({ error: expect.any(String) })
    expect((await server.fetch(`${server.url}/ipfs/${cid}?format=raw`)).status).toBe(200)
  })
})
