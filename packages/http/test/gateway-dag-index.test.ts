import { createMemoryBlobStore } from '@pinfold/adapter-memory'
import type { BlobStore } from '@pinfold/core'
import { chacha, type GatewayTestApi, readVerifiedCar, startGatewayApi } from '@pinfold/testing/gateway'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const LEAF = 262_144

/** A memory blob store that counts, per key, the bytes every `get` hands out. */
function countingBlobStore() {
  const inner = createMemoryBlobStore()
  const bytesRead = new Map<string, number>()
  const store: BlobStore = {
    ...inner,
    async get(key, options) {
      const source = await inner.get(key, options)
      return (async function* () {
        for await (const chunk of source) {
          bytesRead.set(key, (bytesRead.get(key) ?? 0) + chunk.length)
          yield chunk
        }
      })()
    },
  }
  const keys = async () => {
    const found: string[] = []
    for await (const { key } of inner.list()) found.push(key)
    return found.sort()
  }
  return { store, bytesRead, keys }
}

describe('stored DAG inner nodes of uploaded files', () => {
  const blobs = countingBlobStore()
  let server: GatewayTestApi
  // 20 leaves and a root: the root is the DAG's one inner node
  const file = chacha('dag-index', 20 * LEAF + 12_345)

  beforeAll(async () => {
    server = await startGatewayApi({ blobs: blobs.store })
  })
  afterAll(() => server.close())

  it('the first trustless request for a byte range reads one leaf of the file, not the whole file', async () => {
    const { cid, id } = (await server.upload(file, { network: 'public', name: 'big.bin' })) as {
      cid: string
      id: string
    }
    const keys = await blobs.keys()
    expect(keys).toHaveLength(2)
    const [fileKey, indexKey] = keys as [string, string]
    expect(indexKey).toBe(`${fileKey}.idx`)
    blobs.bytesRead.clear()

    const res = await server.fetch(`${server.url}/ipfs/${cid}?format=car&entity-bytes=3000000:3000099`)
    expect(res.status).toBe(200)
    const car = await readVerifiedCar(new Uint8Array(await res.arrayBuffer()))
    expect(car.blocks).toHaveLength(2) // the root and the leaf holding the range
    const slice = await car.reassemble(3_000_000, 100)
    expect(Buffer.from(slice).equals(Buffer.from(file.subarray(3_000_000, 3_000_100)))).toBe(true)
    expect(blobs.bytesRead.get(fileKey)).toBe(LEAF)
    expect(blobs.bytesRead.get(indexKey)).toBeGreaterThan(0)

    // the same range again: the inner nodes are remembered, only the leaf is read
    blobs.bytesRead.clear()
    const again = await server.fetch(`${server.url}/ipfs/${cid}?format=car&entity-bytes=3000000:3000099`)
    expect((await readVerifiedCar(new Uint8Array(await again.arrayBuffer()))).blocks).toHaveLength(2)
    expect(blobs.bytesRead.get(fileKey)).toBe(LEAF)
    expect(blobs.bytesRead.get(indexKey) ?? 0).toBe(0)

    // the root block alone needs nothing of the file
    blobs.bytesRead.clear()
    const root = await server.fetch(`${server.url}/ipfs/${cid}?format=raw`)
    expect(root.status).toBe(200)
    expect(blobs.bytesRead.get(fileKey) ?? 0).toBe(0)

    // deleting the file removes its bytes and its DAG index together
    expect((await server.api(`/v3/files/public/${id}`, { method: 'DELETE' })).status).toBe(200)
    expect(await blobs.keys()).toEqual([])
  })

  it('a file kept under CIDv0 keeps its own inner nodes; its UnixFS leaves are rebuilt around slices of the blob', async () => {
    const { cid, id } = (await server.upload(file, { network: 'public', cid_version: 'v0' })) as {
      cid: string
      id: string
    }
    expect(cid.startsWith('Qm')).toBe(true)
    expect(await blobs.keys()).toHaveLength(2)
    const res = await server.fetch(`${server.url}/ipfs/${cid}?format=car&entity-bytes=0:99`)
    const car = await readVerifiedCar(new Uint8Array(await res.arrayBuffer()))
    expect(Buffer.from(await car.reassemble(0, 100)).equals(Buffer.from(file.subarray(0, 100)))).toBe(true)
    const leaf = car.blocks.find((block) => block.cid.toString() !== cid)!
    const raw = await server.fetch(`${server.url}/ipfs/${leaf.cid}?format=raw`)
    expect(raw.status).toBe(200)
    expect(Buffer.from(await raw.arrayBuffer()).equals(Buffer.from(leaf.bytes))).toBe(true)
    await server.api(`/v3/files/public/${id}`, { method: 'DELETE' })
  })

  it('a single-leaf file needs no index: its root is its only block', async () => {
    const { id } = (await server.upload(file.subarray(0, 1000), { network: 'public' })) as { id: string }
    expect(await blobs.keys()).toHaveLength(1)
    await server.api(`/v3/files/public/${id}`, { method: 'DELETE' })
  })
})
