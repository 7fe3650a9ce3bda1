import * as dagPb from '@ipld/dag-pb'
import { chacha, type GatewayTestApi, readVerifiedCar, startGatewayApi } from '@pinfold/testing/gateway'
import type { ApiTarget } from '@pinfold/testing/test-api'
import { type FolderFile, folderForm } from '@pinfold/testing/uploads'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const LEAF = 262_144

/** Every block of the root's CAR, each fetched alone with `?format=raw` (and HEAD), must be that block. */
async function expectEveryBlockAddressable(server: ApiTarget, root: string, minimumBlocks: number) {
  const { url } = server
  const res = await server.fetch(`${url}/ipfs/${root}?format=car`)
  expect(res.status).toBe(200)
  const car = await readVerifiedCar(new Uint8Array(await res.arrayBuffer()))
  expect(car.blocks.length).toBeGreaterThanOrEqual(minimumBlocks)
  for (const block of car.blocks) {
    const raw = await server.fetch(`${url}/ipfs/${block.cid}?format=raw`)
    expect(raw.status, `${block.cid}`).toBe(200)
    expect(Buffer.from(await raw.arrayBuffer()).equals(Buffer.from(block.bytes)), `${block.cid}`).toBe(true)
    const head = await server.fetch(`${url}/ipfs/${block.cid}`, {
      method: 'HEAD',
      headers: { accept: 'application/vnd.ipld.raw' },
    })
    expect(head.status, `HEAD ${block.cid}`).toBe(200)
  }
  return car
}

describe('every block of public content is addressable', () => {
  let server: GatewayTestApi
  const now = { at: new Date('2026-11-24T12:00:00Z') }
  beforeAll(async () => {
    server = await startGatewayApi({ clock: { now: () => now.at } })
  })
  afterAll(() => server.close())

  for (const cidVersion of ['v1', 'v0'] as const) {
    it(`raw - each leaf and inner node of a 5 MiB file (${cidVersion}) is served alone`, async () => {
      const bytes = chacha(`blocks-${cidVersion}`, 20 * LEAF + 99)
      const { cid } = (await server.upload(bytes, { network: 'public', cid_version: cidVersion })) as { cid: string }
      await expectEveryBlockAddressable(server, cid, 21)
    })
  }

  it('raw - every directory node and leaf of a folder, and paths below an inner directory', async () => {
    const files: FolderFile[] = [
      { path: 'site/a.txt', bytes: 'hello' },
      { path: 'site/sub/mid.bin', bytes: chacha('mid', 300_000) },
      { path: 'site/big.bin', bytes: chacha('big', 1_000_000) },
    ]
    const res = await server.api('/v3/files', { method: 'POST', body: folderForm(files, { network: 'public' }) })
    const { cid } = ((await res.json()) as { data: { cid: string } }).data
    const car = await expectEveryBlockAddressable(server, cid, 11)
    // the inner directory is a root of its own: its path and its files' bytes resolve below it
    const rootNode = dagPb.decode(car.blocks[0]!.bytes)
    const sub = rootNode.Links.find((link) => link.Name === 'sub')!.Hash
    const mid = await server.fetch(`${server.url}/ipfs/${sub}/mid.bin`)
    expect(mid.status).toBe(200)
    expect(Buffer.from(await mid.arrayBuffer()).equals(Buffer.from(files[1]!.bytes as Uint8Array))).toBe(true)
    const listing = await server.fetch(`${server.url}/ipfs/${sub}/`)
    expect(await listing.text()).toContain('mid.bin')
  })

  it('probe - /ipfs/bafkqaaa (the empty identity CID) answers an empty block and a CAR rooted at it (trustless spec probe paths)', async () => {
    const raw = await server.fetch(`${server.url}/ipfs/bafkqaaa?format=raw`)
    expect(raw.status).toBe(200)
    expect((await raw.arrayBuffer()).byteLength).toBe(0)
    const car = await server.fetch(`${server.url}/ipfs/bafkqaaa?format=car`)
    expect(car.status).toBe(200)
    const { roots, blocks } = await readVerifiedCar(new Uint8Array(await car.arrayBuffer()))
    expect(roots.map(String)).toEqual(['bafkqaaa'])
    expect(blocks).toHaveLength(0)
    expect((await server.fetch(`${server.url}/ipfs/bafkqaaa?format=raw`, { method: 'HEAD' })).status).toBe(200)
  })

  it('raw - a block reachable only from private content, or only from deleted content, is 404', async () => {
    const secret = chacha('private-only', 3 * LEAF)
    const { cid, id } = (await server.upload(secret, { network: 'private' })) as { cid: string; id: string }
    const leaf = await cidOfLeaf(secret.subarray(0, LEAF))
    expect((await server.fetch(`${server.url}/ipfs/${cid}?format=raw`)).status).toBe(404)
    expect((await server.fetch(`${server.url}/ipfs/${leaf}?format=raw`)).status).toBe(404)

    const gone = chacha('deleted', 3 * LEAF)
    const pub = (await server.upload(gone, { network: 'public' })) as { cid: string; id: string }
    const goneLeaf = await cidOfLeaf(gone.subarray(LEAF, 2 * LEAF))
    expect((await server.fetch(`${server.url}/ipfs/${goneLeaf}?format=raw`)).status).toBe(200)
    expect((await server.api(`/v3/files/public/${pub.id}`, { method: 'DELETE' })).status).toBe(200)
    expect((await server.fetch(`${server.url}/ipfs/${goneLeaf}?format=raw`)).status).toBe(404)
    expect((await server.fetch(`${server.url}/ipfs/${pub.cid}`)).status).toBe(404)
    await server.api(`/v3/files/private/${id}`, { method: 'DELETE' })
  })

  it('expiry - a file past its expires_at is no longer served, even before the sweeper deletes it', async () => {
    const expiresAt = String(Math.floor(now.at.getTime() / 1000) + 60) // Unix seconds, as the SDK sends it
    const { cid } = (await server.upload('short-lived', { network: 'public', expires_at: expiresAt })) as {
      cid: string
    }
    expect((await server.fetch(`${server.url}/ipfs/${cid}`)).status).toBe(200)
    now.at = new Date(now.at.getTime() + 61_000)
    expect((await server.fetch(`${server.url}/ipfs/${cid}`)).status).toBe(404)
    expect((await server.fetch(`${server.url}/ipfs/${cid}?format=raw`)).status).toBe(404)
  })

  it('backfill - contents stored before the block index are indexed again from their blobs', async () => {
    const bytes = chacha('backfill', 4 * LEAF + 1)
    const { cid } = (await server.upload(bytes, { network: 'public', cid_version: 'v0' })) as { cid: string }
    const folder = await server.api('/v3/files', {
      method: 'POST',
      body: folderForm([{ path: 'old/x.bin', bytes: chacha('old-x', 2 * LEAF) }], { network: 'public' }),
    })
    const folderCid = ((await folder.json()) as { data: { cid: string } }).data.cid
    const { records, blobs } = server.stores
    const leaf = await cidOfLeaf(bytes.subarray(LEAF, 2 * LEAF), 'v0')
    // what a content stored before the index looks like: no entries, and a file without its sidecar
    for (const stored of [cid, folderCid]) {
      const content = (await records.files.getContent(stored))!
      await records.blocks.deleteBlockLocations(content.blobKey)
      await blobs.delete(`${content.blobKey}.idx`)
    }
    expect((await server.fetch(`${server.url}/ipfs/${leaf}?format=raw`)).status).toBe(404)
    expect((await server.fetch(`${server.url}/ipfs/${folderCid}/x.bin`)).status).toBe(404)
    const result = await server.service.maintenance.indexBlocks()
    expect(result).toMatchObject({ indexed: 2, failed: [] })
    await expectEveryBlockAddressable(server, cid, 5)
    await expectEveryBlockAddressable(server, folderCid, 4)
    expect((await server.fetch(`${server.url}/ipfs/${leaf}?format=raw`)).status).toBe(200)
    expect((await server.service.maintenance.indexBlocks()).indexed).toBe(0)
  })
})

async function cidOfLeaf(bytes: Uint8Array, version: 'v0' | 'v1' = 'v1'): Promise<string> {
  const { computeFileCid } = await import('@pinfold/core')
  return (await computeFileCid([bytes] as unknown as AsyncIterable<Uint8Array>, version)).toString()
}
