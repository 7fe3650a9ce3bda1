import { kuboImporterOptions } from '@pinfold/core'
import { form, startTestApi, type TestApi } from '@pinfold/testing/test-api'
import { carBytes, directoryVector, storedBlocks } from '@pinfold/testing/uploads'
import { importer } from 'ipfs-unixfs-importer'
import type { CID } from 'multiformats/cid'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

interface Block {
  cid: CID
  bytes: Uint8Array
}

/** The blocks `ipfs add -r --cid-version=1` makes for the planets folder, root first. */
async function planetBlocks(): Promise<{ root: CID; blocks: Block[] }> {
  const blocks: Block[] = []
  const store = {
    async put(cid: CID, bytes: Uint8Array) {
      blocks.push({ cid, bytes })
      return cid
    },
  }
  let root: CID | undefined
  const files = [
    { path: 'planets/mars.txt', content: new TextEncoder().encode('Hello Mars!\n') },
    { path: 'planets/venus.txt', content: new TextEncoder().encode('Hello Venus!\n') },
  ]
  for await (const entry of importer(files, store, kuboImporterOptions('v1'))) {
    if (entry.path === 'planets') root = entry.cid
  }
  return { root: root!, blocks }
}

describe('CAR uploads (car=true)', () => {
  let server: TestApi
  beforeAll(async () => {
    server = await startTestApi()
  })
  afterAll(() => server.close())

  const uploadCar = async (bytes: Uint8Array, fields: Record<string, string> = { network: 'public', car: 'true' }) => {
    const res = await server.api('/v3/files', {
      method: 'POST',
      body: form(fields, { bytes, name: 'upload.car', type: 'application/vnd.ipld.car' }),
    })
    return { status: res.status, body: (await res.json()) as { data: { cid: string; id: string }; error?: string } }
  }

  it("upload - a valid CAR is stored as a CAR content whose CID is the CAR's root", async () => {
    const { root, blocks } = await planetBlocks()
    expect(root.toString()).toBe(directoryVector('dir planets (ipfs add -r planets)').cidv1)
    const res = await uploadCar(await carBytes([root], blocks))
    expect(res.status).toBe(200)
    expect(res.body.data.cid).toBe(root.toString())
    const stored = await storedBlocks(server, root.toString())
    expect(stored.content.kind).toBe('car')
    expect(new Set(stored.blocks.map((b) => b.cid))).toEqual(new Set(blocks.map((b) => b.cid.toString())))
    // the raw file blob is gone: only the CAR and its index remain
    const again = await uploadCar(await carBytes([root], blocks))
    expect(again.body.data).toMatchObject({ cid: root.toString(), is_duplicate: true })
  })

  it('upload - blocks may come in any order, children before parents', async () => {
    const { root, blocks } = await planetBlocks()
    const res = await uploadCar(await carBytes([root], [...blocks].reverse()), {
      network: 'public',
      car: 'true',
      name: 'reversed',
    })
    expect(res.status).toBe(200)
  })

  const refusals: [string, () => Promise<Uint8Array>, Record<string, string>?][] = [
    [
      'a tampered block',
      async () => {
        const { root, blocks } = await planetBlocks()
        const leaf = blocks.find((b) => b.cid.code === 0x55)!
        const bytes = new Uint8Array(leaf.bytes)
        bytes[0] = bytes[0]! ^ 0xff
        return carBytes(
          [root],
          blocks.map((b) => (b === leaf ? { cid: b.cid, bytes } : b)),
        )
      },
    ],
    [
      'a missing block',
      async () => {
        const { root, blocks } = await planetBlocks()
        return carBytes(
          [root],
          blocks.filter((b, i) => !(b.cid.code === 0x55 && i === 0)),
        )
      },
    ],
    [
      'a missing root block',
      async () => {
        const { root, blocks } = await planetBlocks()
        return carBytes(
          [root],
          blocks.filter((b) => !b.cid.equals(root)),
        )
      },
    ],
    [
      'two roots',
      async () => {
        const { root, blocks } = await planetBlocks()
        return carBytes([root, blocks[0]!.cid], blocks)
      },
    ],
    ['bytes that are not a CAR', async () => new TextEncoder().encode('definitely not a CAR file')],
    [
      'a CAR sent to the private network',
      async () => {
        const { root, blocks } = await planetBlocks()
        return carBytes([root], blocks)
      },
      { network: 'private', car: 'true' },
    ],
    [
      'a CAR with no network (private by default)',
      async () => {
        const { root, blocks } = await planetBlocks()
        return carBytes([root], blocks)
      },
      { car: 'true' },
    ],
  ]
  for (const [what, build, fields] of refusals) {
    it(`upload - refuses ${what} with 400 and stores nothing`, async () => {
      const before = server.blobCount()
      const res = await uploadCar(await build(), fields)
      expect(res.status).toBe(400)
      expect(server.blobCount()).toBe(before)
    })
  }

  it('upload - a folder cannot be a CAR upload', async () => {
    const body = new FormData()
    body.append('file', new Blob(['a']), 'dir/a.car')
    body.append('network', 'public')
    body.append('car', 'true')
    const before = server.blobCount()
    const res = await server.api('/v3/files', { method: 'POST', body })
    expect(res.status).toBe(400)
    expect(server.blobCount()).toBe(before)
  })
})
