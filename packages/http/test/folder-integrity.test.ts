import { createHash, randomBytes } from 'node:crypto'
import { CarBlockIterator } from '@ipld/car/iterator'
import { startTestApi, type TestApi } from '@pinfold/testing/test-api'
import { type FolderFile, folderForm } from '@pinfold/testing/uploads'
import { importer } from 'ipfs-unixfs-importer'
import { fixedSize } from 'ipfs-unixfs-importer/chunker'
import { balanced } from 'ipfs-unixfs-importer/layout'
import type { CID } from 'multiformats/cid'
import { sha256 } from 'multiformats/hashes/sha2'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

/**
 * The folder measured in issue 15: multi-block files inside a folder came back corrupt (v1) or got
 * a CID other than Kubo's (legacy v0), because concurrent block writes interleaved in the stored CAR.
 */
const SITE: FolderFile[] = [
  { path: 'site/a.txt', bytes: 'hello' },
  { path: 'site/sub/mid.bin', bytes: randomBytes(300_000) },
  { path: 'site/big.bin', bytes: randomBytes(1_000_000) },
]

/** `ipfs add -r site` (v0) and `ipfs add -r --cid-version=1 site`, spelled out from Kubo's defaults. */
async function kuboFolderCid(files: readonly FolderFile[], version: 0 | 1): Promise<string> {
  const options = {
    cidVersion: version,
    rawLeaves: version === 1,
    leafType: 'file',
    reduceSingleLeafToSelf: true,
    chunker: fixedSize({ chunkSize: 262_144 }),
    layout: balanced({ maxChildrenPerNode: 174 }),
  } as const
  let root: string | undefined
  const discard = { put: async (cid: CID) => cid }
  const source = files.map((file) => ({ path: file.path, content: Buffer.from(file.bytes) }))
  for await (const entry of importer(source, discard, options)) if (entry.path === 'site') root = entry.cid.toString()
  if (!root) throw new Error('no root')
  return root
}

const digest = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex')

describe('folder integrity (multi-block files inside folders)', () => {
  let server: TestApi
  beforeAll(async () => {
    server = await startTestApi()
  })
  afterAll(() => server.close())

  const readBack = async (root: string) => {
    for (const file of SITE) {
      const res = await server.fetch(`${server.url}/ipfs/${root}/${file.path.slice('site/'.length)}`)
      expect(res.status, file.path).toBe(200)
      const body = new Uint8Array(await res.arrayBuffer())
      expect(body.length, file.path).toBe(Buffer.from(file.bytes).length)
      expect(digest(body), file.path).toBe(digest(file.bytes))
    }
  }

  it('upload (v1) - every file over one block reads back byte-exact through /ipfs/{root}/{path}', async () => {
    const res = await server.api('/v3/files', { method: 'POST', body: folderForm(SITE, { network: 'public' }) })
    expect(res.status).toBe(200)
    const { data } = (await res.json()) as { data: { cid: string } }
    expect(data.cid).toBe(await kuboFolderCid(SITE, 1))
    await readBack(data.cid)
  })

  it('upload (v1) - every block of the root CAR re-hashes to its CID', async () => {
    const res = await server.api('/v3/files', { method: 'POST', body: folderForm(SITE, { network: 'public' }) })
    const { data } = (await res.json()) as { data: { cid: string } }
    const car = await server.fetch(`${server.url}/ipfs/${data.cid}?format=car`)
    expect(car.status).toBe(200)
    const reader = await CarBlockIterator.fromBytes(new Uint8Array(await car.arrayBuffer()))
    let count = 0
    for await (const block of reader) {
      const hashed = await sha256.digest(block.bytes)
      expect(Buffer.from(hashed.digest).equals(Buffer.from(block.cid.multihash.digest)), `${block.cid}`).toBe(true)
      count++
    }
    expect(count).toBe(11) // 2 directories, a.txt's leaf, mid.bin's node + 2 leaves, big.bin's node + 4 leaves
  })

  it("pinFileToIPFS (v0) - gives Kubo's CID and serves every multi-block file whole", async () => {
    const res = await server.api('/pinning/pinFileToIPFS', { method: 'POST', body: folderForm(SITE) })
    expect(res.status).toBe(200)
    const body = (await res.json()) as { IpfsHash: string }
    expect(body.IpfsHash).toBe(await kuboFolderCid(SITE, 0))
    await readBack(body.IpfsHash)
  })

  it('paths - names with spaces, non-ASCII and URL syntax characters resolve when percent-encoded', async () => {
    const names = ['a b.txt', 'ü/ß.txt', '#%?&+=;.bin', '😀']
    const files = names.map((name, i) => ({ path: `odd/${name}`, bytes: `file ${i}` }))
    const res = await server.api('/v3/files', { method: 'POST', body: folderForm(files, { network: 'public' }) })
    const { cid } = ((await res.json()) as { data: { cid: string } }).data
    for (const [i, name] of names.entries()) {
      const encoded = name.split('/').map(encodeURIComponent).join('/')
      const file = await server.fetch(`${server.url}/ipfs/${cid}/${encoded}`)
      expect(file.status, name).toBe(200)
      expect(await file.text(), name).toBe(`file ${i}`)
      expect(file.headers.get('x-ipfs-path'), name).toBe(`/ipfs/${cid}/${encoded}`)
    }
  })
})
