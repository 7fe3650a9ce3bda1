import { createMemoryBlobStore, createMemoryRecordStore } from '@pinfold/adapter-memory'
import { describe, expect, it } from 'vitest'
import type { BlockFetcher, FileService, PinRequestRecord } from '../../src/index.js'
import { PinfoldError } from '../../src/index.js'
import {
  alice,
  concat,
  createTestService,
  digest,
  mallory,
  patterned,
  storedNothing,
  type TestService,
  uploadFile,
  uploadFolder,
} from '../support/test-service.js'

/**
 * Pin by CID on the memory adapters. The blocks come from a second service that holds the content
 * (real blocks, real hashing), through a fetcher that reads them from its gateway as a trustless
 * gateway would serve them.
 */

/** 1 MiB of patterned bytes: a root and four 256 KiB leaves. */
const FILE_BYTES = patterned(1024 * 1024, 7)
const FOLDER = {
  'site/index.html': '<h1>hello</h1>',
  'site/css/style.css': 'h1 { color: red }',
  'site/logo.bin': patterned(300_000, 3),
}

interface Source {
  service: FileService
  fetcher: BlockFetcher & { calls: string[] }
}

/** A service holding public content, and a fetcher serving its blocks (optionally tampered with). */
function source(
  options: { tamper?: (cid: string) => boolean; missing?: (cid: string) => boolean; hang?: boolean } = {},
): Source {
  const { service } = createTestService()
  const calls: string[] = []
  const fetcher = {
    name: 'test-source',
    calls,
    async getBlock(cid: string, { signal }: { signal?: AbortSignal }) {
      calls.push(cid)
      if (options.hang) {
        await new Promise((_, reject) =>
          signal?.addEventListener('abort', () => reject(new PinfoldError('ABORTED', 'aborted'))),
        )
      }
      if (options.missing?.(cid)) throw new PinfoldError('NOT_FOUND', `no block ${cid}`)
      const root = await service.gateway.resolve({ kind: 'public' }, cid, { signal })
      const { bytes } = await service.gateway.block(root, [], { signal })
      if (!options.tamper?.(cid)) return bytes
      const copy = bytes.slice()
      copy[0] = (copy[0] ?? 0) ^ 0xff
      return copy
    },
  }
  return { service, fetcher }
}

async function gatewayBytes(service: FileService, cid: string, path: string[] = []): Promise<Uint8Array> {
  const entry = await service.gateway.entry(await service.gateway.resolve({ kind: 'public' }, cid), path)
  if (entry.type !== 'file') throw new Error(`expected a file, got ${entry.type}`)
  return concat(await entry.read())
}

async function onlyRequest(test: TestService): Promise<PinRequestRecord> {
  const { requests } = await test.service.pins.list(alice)
  expect(requests).toHaveLength(1)
  return requests[0]!
}

describe('pin by CID', () => {
  it('pins a file held elsewhere: every block fetched and verified, the file record as requested, identical bytes', async () => {
    const src = source()
    const { file: original } = await uploadFile(src.service, alice, FILE_BYTES, { network: 'public' })
    const test = createTestService({ blockFetchers: [src.fetcher] })
    const group = await test.service.groups.create(alice, 'public', { name: 'pins' })
    const queued = await test.service.pins.add(alice, {
      cid: original.cid,
      name: 'pinned.bin',
      groupId: group.id,
      keyvalues: { env: 'prod', n: 3 },
    })
    expect(queued).toMatchObject({
      state: 'queued',
      cid: original.cid,
      name: 'pinned.bin',
      keyvalues: { env: 'prod', n: '3' },
    })

    expect(await test.service.pins.runNext()).toBe(true)
    expect(await test.service.pins.runNext()).toBe(false)

    expect(await onlyRequest(test)).toMatchObject({ id: queued.id, state: 'pinned', failure: null, leaseOwner: null })
    const file = await test.service.files.get(alice, 'public', queued.id)
    expect(file).toMatchObject({
      cid: original.cid,
      name: 'pinned.bin',
      groupId: group.id,
      keyvalues: { env: 'prod', n: '3' },
      network: 'public',
      numberOfFiles: 1,
    })
    // five blocks, each asked once
    expect(src.fetcher.calls).toHaveLength(5)
    expect(new Set(src.fetcher.calls).size).toBe(5)
    expect(digest(await gatewayBytes(test.service, original.cid))).toBe(digest(FILE_BYTES))
  })

  it('pins a folder: nested directories, files counted, every path served', async () => {
    const src = source()
    const { file: original } = await uploadFolder(src.service, alice, FOLDER, { network: 'public' })
    const test = createTestService({ blockFetchers: [src.fetcher], pinning: { concurrency: 3 } })
    const { id } = await test.service.pins.add(alice, { cid: original.cid })
    await test.service.pins.runNext()
    expect(await test.service.files.get(alice, 'public', id)).toMatchObject({
      cid: original.cid,
      name: original.cid, // Pinata's default name is the CID
      mimeType: 'directory',
      numberOfFiles: 3,
    })
    expect(new TextDecoder().decode(await gatewayBytes(test.service, original.cid, ['css', 'style.css']))).toBe(
      'h1 { color: red }',
    )
    expect(digest(await gatewayBytes(test.service, original.cid, ['logo.bin']))).toBe(digest(FOLDER['site/logo.bin']))
  })

  it('a tampered block ends the request invalid_object and keeps nothing', async () => {
    // the file's leaves are raw blocks (bafkrei…), its root a dag-pb node (bafybei…)
    const src = source({ tamper: isLeaf })
    const { file: original } = await uploadFile(src.service, alice, FILE_BYTES, { network: 'public' })
    const test = createTestService({ blockFetchers: [src.fetcher] })
    await test.service.pins.add(alice, { cid: original.cid })
    await test.service.pins.runNext()
    const request = await onlyRequest(test)
    expect(request).toMatchObject({ state: 'failed', failure: 'invalid_object' })
    expect(request.reason).toMatch(/^test-source sent a block that is not bafkrei\w+: hash mismatch/)
    expect(await storedNothing(test)).toBe(true)
  })

  it('a block no source has ends the request not_found; a later source in the list is asked first', async () => {
    const src = source({ missing: isLeaf })
    const { file: original } = await uploadFile(src.service, alice, FILE_BYTES, { network: 'public' })
    const test = createTestService({ blockFetchers: [src.fetcher] })
    await test.service.pins.add(alice, { cid: original.cid })
    await test.service.pins.runNext()
    const request = await onlyRequest(test)
    expect(request).toMatchObject({ state: 'failed', failure: 'not_found' })
    expect(request.reason).toMatch(/^block (bafkrei\w+) was not found \(test-source: no block \1\)$/)
    expect(await storedNothing(test)).toBe(true)

    // with a second source that has every block, the first one's miss is covered
    const full = source()
    await uploadFile(full.service, alice, FILE_BYTES, { network: 'public' })
    const retry = createTestService({ blockFetchers: [src.fetcher, full.fetcher] })
    const { id } = await retry.service.pins.add(alice, { cid: original.cid })
    await retry.service.pins.runNext()
    expect((await retry.service.files.get(alice, 'public', id)).cid).toBe(original.cid)
    expect(full.fetcher.calls).toHaveLength(4)
    expect(full.fetcher.calls.every(isLeaf)).toBe(true)
  })

  it('a DAG over the byte or block cap ends too_large and keeps nothing', async () => {
    const src = source()
    const { file: original } = await uploadFile(src.service, alice, FILE_BYTES, { network: 'public' })
    for (const pinning of [{ maxBytes: 600_000 }, { maxBlocks: 4 }]) {
      const test = createTestService({ blockFetchers: [src.fetcher], pinning })
      await test.service.pins.add(alice, { cid: original.cid })
      await test.service.pins.runNext()
      expect(await onlyRequest(test), JSON.stringify(pinning)).toMatchObject({ state: 'failed', failure: 'too_large' })
      expect(await storedNothing(test)).toBe(true)
    }
  })

  it('a job past its time ends timed_out and keeps nothing', async () => {
    const src = source({ hang: true })
    const test = createTestService({ blockFetchers: [src.fetcher], pinning: { jobTimeoutMs: 200 } })
    await test.service.pins.add(alice, { cid: 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy' })
    await test.service.pins.runNext()
    expect(await onlyRequest(test)).toMatchObject({ state: 'failed', failure: 'timed_out' })
    expect(await storedNothing(test)).toBe(true)
  })

  it('deleting a request mid-job stops its job: no file, no blob, no request', async () => {
    const src = source({ hang: true })
    const test = createTestService({ blockFetchers: [src.fetcher] })
    const { id } = await test.service.pins.add(alice, {
      cid: 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy',
    })
    const job = test.service.pins.runNext()
    await until(() => src.fetcher.calls.length > 0)
    expect((await onlyRequest(test)).state).toBe('retrieving')
    await test.service.pins.remove(alice, id)
    expect(await job).toBe(true)
    expect((await test.service.pins.list(alice)).requests).toEqual([])
    expect(await storedNothing(test)).toBe(true)
  })

  it('a job stopped by its caller (shutdown) goes back to the queue, keeping nothing, its attempt uncounted', async () => {
    const src = source({ hang: true })
    const test = createTestService({ blockFetchers: [src.fetcher] })
    const { id } = await test.service.pins.add(alice, {
      cid: 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy',
    })
    const shutdown = new AbortController()
    const job = test.service.pins.runNext({ signal: shutdown.signal })
    await until(() => src.fetcher.calls.length > 0)
    shutdown.abort()
    expect(await job).toBe(true)
    // stopped, not failed: the attempt its claim counted is given back
    expect(await onlyRequest(test)).toMatchObject({ id, state: 'queued', leaseOwner: null, attempts: 0 })
    expect(await storedNothing(test)).toBe(true)
  })

  it('a deletion in another process is seen at the next lease renewal', async () => {
    const records = createMemoryRecordStore()
    const blobs = createMemoryBlobStore()
    const src = source({ hang: true })
    const worker = createTestService({ records, blobs, blockFetchers: [src.fetcher], pinning: { leaseMs: 300 } })
    const api = createTestService({ records, blobs })
    const { id } = await api.service.pins.add(alice, {
      cid: 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy',
    })
    const job = worker.service.pins.runNext()
    await until(() => src.fetcher.calls.length > 0)
    await api.service.pins.remove(alice, id)
    expect(await job).toBe(true) // stopped by the failed renewal, well before any timeout
    expect(blobs.count).toBe(0)
  })

  it('a CID whose public content is held here completes at once, without fetching', async () => {
    const src = source()
    const test = createTestService({ blockFetchers: [src.fetcher] })
    const { file: held } = await uploadFile(test.service, mallory, FILE_BYTES, { network: 'public' }, { path: 'a.bin' })
    const blobsBefore = test.blobs.count
    const { id } = await test.service.pins.add(alice, { cid: held.cid, name: 'mine.bin' })
    await test.service.pins.runNext()
    expect(src.fetcher.calls).toEqual([])
    expect(test.blobs.count).toBe(blobsBefore)
    expect(await test.service.files.get(alice, 'public', id)).toMatchObject({
      cid: held.cid,
      name: 'mine.bin',
      size: FILE_BYTES.length,
      mimeType: 'application/octet-stream',
    })
  })

  it('pinning a CID whose only file is being deleted never leaves a listed file the gateway cannot serve', async () => {
    // the deletion starts 0, 1, 2 … microtasks after the job: every interleaving of the job's
    // reuse of the held content with the deletion releasing it
    for (let offset = 0; offset < 300; offset += 3) {
      const test = createTestService()
      const bytes = patterned(2000, offset)
      const { file: held } = await uploadFile(test.service, mallory, bytes, { network: 'public' }, { path: 'a.bin' })
      const { id } = await test.service.pins.add(alice, { cid: held.cid })
      const deletion = (async () => {
        for (let turn = 0; turn < offset; turn++) await Promise.resolve()
        await test.service.files.delete(mallory, 'public', held.id)
      })()
      while (await test.service.pins.runNext()) {}
      await deletion
      const request = await onlyRequest(test)
      const listed = (await test.service.files.list(alice, 'public')).files.map((f) => f.id)
      if (request.state === 'pinned') {
        expect(listed, `offset ${offset}`).toEqual([id])
        expect(digest(await gatewayBytes(test.service, held.cid)), `offset ${offset}`).toBe(digest(bytes))
      } else {
        expect(request, `offset ${offset}`).toMatchObject({ state: 'failed', failure: 'not_found' })
        expect(listed, `offset ${offset}`).toEqual([])
      }
    }
  })

  it("private content here is never reused: a CID known from someone's private file is fetched", async () => {
    const src = source()
    await uploadFile(src.service, alice, FILE_BYTES, { network: 'public' })
    const test = createTestService({ blockFetchers: [src.fetcher] })
    const { file: secret } = await uploadFile(test.service, mallory, FILE_BYTES, { network: 'private' })
    await test.service.pins.add(alice, { cid: secret.cid })
    await test.service.pins.runNext()
    expect(src.fetcher.calls).toHaveLength(5)
    expect((await onlyRequest(test)).state).toBe('pinned')
  })

  it('without any block source, a CID not held here ends not_found', async () => {
    const test = createTestService()
    await test.service.pins.add(alice, { cid: 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy' })
    await test.service.pins.runNext()
    expect(await onlyRequest(test)).toMatchObject({ state: 'failed', failure: 'not_found' })
  })

  it('a crashed worker’s job is taken over once its lease runs out and completes once', async () => {
    const src = source()
    const { file: original } = await uploadFile(src.service, alice, FILE_BYTES, { network: 'public' })
    const records = createMemoryRecordStore()
    const test = createTestService({ records, blockFetchers: [src.fetcher], pinning: { leaseMs: 10_000 } })
    const { id } = await test.service.pins.add(alice, { cid: original.cid })
    // a process claimed it and died
    expect(await records.pinRequests.claimPinRequest('dead-worker', test.clock.now(), 10_000)).toMatchObject({ id })
    expect(await test.service.pins.runNext()).toBe(false)
    test.clock.advance(10_000)
    expect(await test.service.pins.runNext()).toBe(true)
    expect(await onlyRequest(test)).toMatchObject({ state: 'pinned', attempts: 2 })
    expect((await test.service.files.list(alice, 'public')).files.map((f) => f.id)).toEqual([id])
  })

  it('a request whose every attempt was cut short is given up after maxAttempts', async () => {
    const records = createMemoryRecordStore()
    const test = createTestService({ records, pinning: { leaseMs: 1000, maxAttempts: 2 } })
    const { id } = await test.service.pins.add(alice, {
      cid: 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy',
    })
    for (const worker of ['crashed-1', 'crashed-2']) {
      expect(await records.pinRequests.claimPinRequest(worker, test.clock.now(), 1000)).toMatchObject({ id })
      test.clock.advance(1000)
    }
    expect(await test.service.pins.runNext()).toBe(true)
    const request = await onlyRequest(test)
    expect(request).toMatchObject({ state: 'failed', failure: 'timed_out', attempts: 3 })
    expect(request.reason).toMatch(/^gave up after 2 attempts/)
  })

  it('two workers on one store share the queue: every request runs exactly once', async () => {
    const src = source()
    const cids: string[] = []
    for (let i = 0; i < 6; i++) {
      cids.push((await uploadFile(src.service, alice, patterned(10_000, 100 + i), { network: 'public' })).file.cid)
    }
    const records = createMemoryRecordStore()
    const blobs = createMemoryBlobStore()
    const workers = [1, 2].map(() => createTestService({ records, blobs, blockFetchers: [src.fetcher] }))
    for (const cid of cids) await workers[0]!.service.pins.add(alice, { cid })
    const drain = async (service: FileService) => {
      while (await service.pins.runNext()) {}
    }
    await Promise.all(workers.map((w) => drain(w.service)))
    expect(src.fetcher.calls.sort()).toEqual([...cids].sort())
    const { requests } = await workers[0]!.service.pins.list(alice)
    expect(requests.map((r) => [r.state, r.attempts])).toEqual(cids.map(() => ['pinned', 1]))
    expect((await workers[1]!.service.files.list(alice, 'public', { limit: 100 })).files).toHaveLength(6)
  })

  it('list - filters by state, failure and CID, pages oldest first; tenants see only their own', async () => {
    const test = createTestService()
    const a = await test.service.pins.add(alice, { cid: 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy' })
    test.clock.advance(1000)
    const b = await test.service.pins.add(alice, { cid: 'QmWSgS32xQEcXMeqd3YPJLrNBLSdsfYCep2U7CFkyrjXwY' })
    await test.service.pins.runNext() // a fails: no source
    const ids = (list: { requests: PinRequestRecord[] }) => list.requests.map((r) => r.id)
    expect(ids(await test.service.pins.list(alice))).toEqual([a.id, b.id])
    expect(ids(await test.service.pins.list(alice, { order: 'DESC' }))).toEqual([b.id, a.id])
    expect(ids(await test.service.pins.list(alice, { states: ['queued'] }))).toEqual([b.id])
    expect(ids(await test.service.pins.list(alice, { failures: ['not_found'] }))).toEqual([a.id])
    expect(ids(await test.service.pins.list(alice, { cids: [b.cid] }))).toEqual([b.id])
    const first = await test.service.pins.list(alice, { limit: 1 })
    expect(ids(first)).toEqual([a.id])
    expect(ids(await test.service.pins.list(alice, { limit: 1, pageToken: first.nextPageToken }))).toEqual([b.id])
    expect((await test.service.pins.list(mallory)).requests).toEqual([])
    await expect(test.service.pins.remove(mallory, b.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    await test.service.pins.remove(alice, b.id)
    await expect(test.service.pins.remove(alice, b.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })

  it('add - refuses bad input and queues nothing', async () => {
    const test = createTestService()
    const cid = 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy'
    const bad: [Parameters<FileService['pins']['add']>[1], string, string][] = [
      [{ cid: 'not-a-cid' }, 'INVALID_INPUT', 'is not a valid CID'],
      [{ cid: '' }, 'INVALID_INPUT', 'cid must be'],
      // the same multihash under the libp2p-key codec: nothing Pinfold can walk
      [{ cid: 'bafzbeigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy' }, 'INVALID_INPUT', 'uses codec 0x72'],
      // a blake2b-256 multihash: a hash Pinfold cannot verify
      [{ cid: 'bafk2bzacea3wtb7xlwx7lxshbqy2bdr4jzoyznkgkvvtrycbrbmqsvbg3dqmq' }, 'INVALID_INPUT', 'uses hash 0xb220'],
      [{ cid, name: ' ' }, 'INVALID_INPUT', 'name must be'],
      [{ cid, keyvalues: { k: {} as unknown as string } }, 'INVALID_INPUT', 'keyvalues.k'],
      [{ cid, hostNodes: ['example.com:4001'] }, 'INVALID_INPUT', 'host_nodes[0] must be a multiaddr'],
      [{ cid, hostNodes: Array.from({ length: 21 }, () => '/ip4/127.0.0.1/tcp/1') }, 'INVALID_INPUT', 'at most 20'],
      // a slash and 1023 bytes of junk, twenty times, was stored as given
      [{ cid, hostNodes: Array.from({ length: 20 }, () => `/${'x'.repeat(511)}`) }, 'INVALID_INPUT', 'host_nodes[0]'],
      [{ cid, hostNodes: ['/ip4/203.0.113.7/tcp/4001/p2p/abc'] }, 'INVALID_INPUT', 'not a peer id'],
      [
        { cid, hostNodes: ['/unix/%2Ftmp%2Fs/p2p/QmYyQSo1c1Ym7orWxLYvCrM2EmxFTANf8wXmmE7DWjhx5N'] },
        'INVALID_INPUT',
        'host',
      ],
      [{ cid, groupId: 'no-such-group' }, 'NOT_FOUND', 'group not found'],
    ]
    for (const [input, code, message] of bad) {
      await expect(test.service.pins.add(alice, input), JSON.stringify(input)).rejects.toMatchObject({
        code,
        message: expect.stringContaining(message),
      })
    }
    const privateGroup = await test.service.groups.create(alice, 'private', { name: 'p' })
    await expect(test.service.pins.add(alice, { cid, groupId: privateGroup.id })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    })
    expect((await test.service.pins.list(alice)).requests).toEqual([])
  })
})

/** A raw leaf of a CIDv1 file DAG, as opposed to its dag-pb root. */
const isLeaf = (cid: string) => cid.startsWith('bafkrei')

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10))
  if (!condition()) throw new Error('condition never became true')
}
