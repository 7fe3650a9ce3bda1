import { randomBytes } from 'node:crypto'
import { kuboImporterOptions } from '@pinfold/core'
import { startTestApi, type TestApi } from '@pinfold/testing/test-api'
import {
  directoryVector,
  type FolderFile,
  folderForm,
  readStoredCar,
  storedBlocks,
  VECTOR_FOLDERS,
} from '@pinfold/testing/uploads'
import { importer } from 'ipfs-unixfs-importer'
import { CID } from 'multiformats/cid'
import { sha256 } from 'multiformats/hashes/sha2'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

interface Upload {
  id: string
  cid: string
  mime_type: string
  number_of_files: number
  size: number
  name: string
  is_duplicate: boolean
  keyvalues: Record<string, string>
  group_id: string | null
}

describe('folder uploads', () => {
  let server: TestApi
  beforeAll(async () => {
    server = await startTestApi()
  })
  afterAll(() => server.close())

  const postFolder = async (files: FolderFile[], fields: Record<string, string> = {}) => {
    const res = await server.api('/v3/files', { method: 'POST', body: folderForm(files, fields) })
    return { status: res.status, body: (await res.json()) as { data: Upload; error?: string } }
  }
  const pinLegacy = async (files: FolderFile[], fields: Record<string, string> = {}) => {
    const res = await server.api('/pinning/pinFileToIPFS', { method: 'POST', body: folderForm(files, fields) })
    return { status: res.status, body: (await res.json()) as Record<string, unknown> }
  }

  for (const [name, files] of VECTOR_FOLDERS) {
    const vector = directoryVector(name)
    it(`upload - gives Kubo's directory CIDs (v1 and v0) for ${name}`, async () => {
      const v1 = await postFolder(files, { network: 'public' })
      expect(v1.status).toBe(200)
      expect(v1.body.data.cid).toBe(vector.cidv1)
      expect(v1.body.data).toMatchObject({ mime_type: 'directory', number_of_files: files.length })
      // cid_version arrives after the files, as the SDK sends it
      const v0 = await postFolder(files, { network: 'public', cid_version: 'v0' })
      expect(v0.status).toBe(200)
      expect(v0.body.data.cid).toBe(vector.cidv0)
    })

    it(`pinFileToIPFS - gives Kubo's directory CIDs for ${name} (v0 by default, v1 when asked)`, async () => {
      const v0 = await pinLegacy(files)
      expect(v0.status).toBe(200)
      expect(v0.body.IpfsHash).toBe(vector.cidv0)
      const v1 = await pinLegacy(files, { pinataOptions: JSON.stringify({ cidVersion: 1 }) })
      expect(v1.body.IpfsHash).toBe(vector.cidv1)
    })
  }

  it('upload - a folder is stored as a CARv1 of its whole DAG, each block indexed and hashing to its CID', async () => {
    const files = VECTOR_FOLDERS[1]![1]
    const res = await postFolder(files, { network: 'private', name: 'moons' })
    const { content, blocks } = await storedBlocks(server, res.body.data.cid)
    expect(content).toMatchObject({ kind: 'car', profile: null })
    expect(blocks[0]!.cid).toBe(res.body.data.cid)
    // 3 files + 2 subdirectories + the root
    expect(blocks).toHaveLength(6)
    for (const block of blocks) {
      const cid = CID.parse(block.cid)
      expect(Buffer.from((await sha256.digest(block.bytes)).digest)).toEqual(Buffer.from(cid.multihash.digest))
    }
    const car = await readStoredCar(server, content.blobKey)
    expect(car.version).toBe(1)
    expect(new Set(car.cids)).toEqual(new Set(blocks.map((b) => b.cid)))
    expect(res.body.data.size).toBe(blocks.reduce((n, b) => n + b.bytes.length, 0))
  })

  it('upload - identical folders dedupe: one stored CAR, the second is a duplicate', async () => {
    const files: FolderFile[] = [
      { path: 'dedupe/a.txt', bytes: `a-${Math.random()}` },
      { path: 'dedupe/b/c.txt', bytes: 'c' },
    ]
    const before = server.blobCount()
    const first = await postFolder(files, { network: 'public' })
    expect(server.blobCount()).toBe(before + 1) // the CAR; its block index is in the record store
    const second = await postFolder(files, { network: 'public' })
    expect(second.body.data).toMatchObject({ cid: first.body.data.cid, is_duplicate: true })
    expect(server.blobCount()).toBe(before + 1)
  })

  it('delete - removing the last file of a folder removes its CAR and its block entries', async () => {
    const before = server.blobCount()
    const res = await postFolder([{ path: `gone-${Math.random()}/x.txt`, bytes: `x-${Math.random()}` }], {
      network: 'public',
    })
    expect(server.blobCount()).toBe(before + 1)
    const { content } = await storedBlocks(server, res.body.data.cid)
    const rootHash = CID.parse(res.body.data.cid).multihash.bytes
    expect(await server.stores.records.blocks.getBlockLocation(content.blobKey, rootHash)).toBeDefined()
    const del = await server.api(`/v3/files/public/${res.body.data.id}`, { method: 'DELETE' })
    expect(del.status).toBe(200)
    expect(server.blobCount()).toBe(before)
    expect(await server.stores.records.blocks.getBlockLocation(content.blobKey, rootHash)).toBeUndefined()
  })

  it('upload - name, keyvalues and group apply to the folder; the name defaults to the top directory', async () => {
    const group = await server.api('/v3/groups/public', { method: 'POST', body: JSON.stringify({ name: 'folders' }) })
    const groupId = ((await group.json()) as { data: { id: string } }).data.id
    const named = await postFolder([{ path: 'site/index.html', bytes: '<h1>hi</h1>' }], {
      network: 'public',
      name: 'My site',
      keyvalues: JSON.stringify({ env: 'prod' }),
      group_id: groupId,
    })
    expect(named.body.data).toMatchObject({ name: 'My site', keyvalues: { env: 'prod' }, group_id: groupId })
    const unnamed = await postFolder([{ path: 'site2/index.html', bytes: '<h1>hi</h1>' }], { network: 'public' })
    expect(unnamed.body.data.name).toBe('site2')
  })

  const badFolders: [string, FolderFile[]][] = [
    ['a path with ..', [{ path: 'dir/../etc/passwd', bytes: 'x' }]],
    ['an absolute path', [{ path: '/dir/a.txt', bytes: 'x' }]],
    ['an empty segment', [{ path: 'dir//a.txt', bytes: 'x' }]],
    [
      'a duplicate path',
      [
        { path: 'dir/a.txt', bytes: 'x' },
        { path: 'dir/a.txt', bytes: 'y' },
      ],
    ],
    [
      'two top-level directories',
      [
        { path: 'one/a.txt', bytes: 'x' },
        { path: 'two/b.txt', bytes: 'y' },
      ],
    ],
    [
      'a path that is both a file and a directory',
      [
        { path: 'dir/a', bytes: 'x' },
        { path: 'dir/a/b', bytes: 'y' },
      ],
    ],
    [
      'a loose file next to a folder',
      [
        { path: 'dir/a.txt', bytes: 'x' },
        { path: 'b.txt', bytes: 'y' },
      ],
    ],
    // the importer recursed once per level: 2,500 levels overflowed the stack (a bare 500)
    ['a path 2,500 levels deep', [{ path: `${'d/'.repeat(2500)}a.txt`, bytes: 'x' }]],
    ['a path one level deeper than 64', [{ path: `${'d/'.repeat(64)}a.txt`, bytes: 'x' }]],
    ['a path longer than 4,096 characters', [{ path: `dir/${'n'.repeat(4093)}`, bytes: 'x' }]],
    [
      'a loose file before a folder',
      [
        { path: 'b.txt', bytes: 'y' },
        { path: 'dir/a.txt', bytes: 'x' },
      ],
    ],
  ]
  for (const [what, files] of badFolders) {
    it(`upload - refuses ${what} with 400 and stores nothing`, async () => {
      const before = server.blobCount()
      const v3 = await postFolder(files, { network: 'public' })
      expect(v3.status).toBe(400)
      const legacy = await pinLegacy(files)
      expect(legacy.status).toBe(400)
      expect(server.blobCount()).toBe(before)
    })
  }

  it('upload - a path 64 levels deep and 4,096 characters long is accepted', async () => {
    const deep = `${'d/'.repeat(63)}a.txt`
    const long = `dir/${'n'.repeat(4092)}`
    expect([deep.split('/').length, long.length]).toEqual([64, 4096])
    for (const path of [deep, long]) {
      const res = await postFolder([{ path, bytes: `deep-${Math.random()}` }], { network: 'public' })
      expect(res.status).toBe(200)
    }
  })

  it('upload - max upload size counts every file of a folder', async () => {
    const small = await startTestApi({ maxUploadBytes: 10 })
    try {
      const res = await small.api('/v3/files', {
        method: 'POST',
        body: folderForm([
          { path: 'big/a', bytes: '123456' },
          { path: 'big/b', bytes: '123456' },
        ]),
      })
      expect(res.status).toBe(413)
      expect(small.blobCount()).toBe(0)
    } finally {
      await small.close()
    }
  })

  it('pinFileToIPFS - answers the unwrapped PascalCase record with pinataMetadata and pinataOptions applied', async () => {
    const files: FolderFile[] = [{ path: 'legacy/a.txt', bytes: `legacy-${Math.random()}` }]
    const res = await pinLegacy(files, {
      pinataMetadata: JSON.stringify({ name: 'Legacy folder', keyvalues: { k: 'v' } }),
      pinataOptions: JSON.stringify({ cidVersion: 1 }),
    })
    expect(res.status).toBe(200)
    expect(Object.keys(res.body).sort()).toEqual(
      [
        'GroupId',
        'ID',
        'IpfsHash',
        'Keyvalues',
        'MimeType',
        'Name',
        'NumberOfFiles',
        'PinSize',
        'Timestamp',
        'isDuplicate',
      ].sort(),
    )
    expect(res.body).toMatchObject({
      Name: 'Legacy folder',
      MimeType: 'directory',
      NumberOfFiles: 1,
      Keyvalues: { k: 'v' },
      GroupId: null,
      isDuplicate: false,
    })
    expect(String(res.body.IpfsHash)).toMatch(/^bafybei/)
    const listed = await server.api(`/v3/files/public?cid=${res.body.IpfsHash}`)
    expect(((await listed.json()) as { data: { files: { id: string }[] } }).data.files[0]!.id).toBe(res.body.ID)
  })

  it('pinFileToIPFS - a single file without a directory is pinned as a file (CIDv0 by default)', async () => {
    const res = await pinLegacy([{ path: 'hello.txt', bytes: 'hello world' }])
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ IpfsHash: 'Qmf412jQZiuVUtdgnB36FXFX7xg5V6KEbSJ4dpQuhkLyfD', NumberOfFiles: 1 })
  })

  it('pinFileToIPFS - needs a bearer token', async () => {
    const res = await server.api('/pinning/pinFileToIPFS', {
      method: 'POST',
      body: folderForm([{ path: 'x/a', bytes: 'a' }]),
      auth: null,
    })
    expect(res.status).toBe(401)
  })

  it('upload - a multi-chunk folder streams through intact: the same CID as a local import of the same bytes', async () => {
    const one = randomBytes(700_000)
    const two = randomBytes(300_000)
    const res = await postFolder(
      [
        { path: 'big/one.bin', bytes: one },
        { path: 'big/sub/two.bin', bytes: two },
      ],
      { network: 'public' },
    )
    expect(res.status).toBe(200)
    let expected: string | undefined
    const discard = { put: async (cid: CID) => cid }
    for await (const entry of importer(
      [
        { path: 'big/one.bin', content: one },
        { path: 'big/sub/two.bin', content: two },
      ],
      discard,
      kuboImporterOptions('v1'),
    )) {
      if (entry.path === 'big') expected = entry.cid.toString()
    }
    expect(res.body.data.cid).toBe(expected)
    const { blocks } = await storedBlocks(server, res.body.data.cid)
    expect(blocks).toHaveLength(9) // 3 + 2 raw leaves, 2 file nodes, 2 directories
  })
})
