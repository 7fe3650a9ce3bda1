import { describe, expect, it } from 'vitest'
import { type CidVersion, computeFileCid, type GatewayScope } from '../../src/index.js'
import {
  alice,
  concat,
  createTestService,
  digest,
  mallory,
  patterned,
  START,
  streamOf,
  uploadFile,
} from '../support/test-service.js'

const PUBLIC: GatewayScope = { kind: 'public' }

type Block = Parameters<NonNullable<Parameters<typeof computeFileCid>[2]>>[0]

/** Kubo's default chunk size: the leaf size of the v0 and v1 profiles. */
const LEAF_BYTES = 262_144

/**
 * Every block of a file's DAG as the reference importer builds it. The importer's hook sees raw
 * leaves only as hashes, so each leaf is imported alone: a single chunk's CID is the leaf itself.
 */
async function referenceBlocks(bytes: Uint8Array, version: Exclude<CidVersion, 'unixfs-v1-2025'>): Promise<Block[]> {
  const blocks: Block[] = []
  await computeFileCid(streamOf(bytes), version, (block) => blocks.push(block))
  if (version === 'v0') return blocks // dag-pb leaves pass through the hook like every other node
  for (let at = 0; at < bytes.length; at += LEAF_BYTES) {
    const chunk = bytes.subarray(at, at + LEAF_BYTES)
    blocks.push({ cid: await computeFileCid(streamOf(chunk), version), bytes: chunk })
  }
  return blocks
}

describe('gateway', () => {
  it('resolve - a public file reads back whole and by range', async () => {
    const { service } = createTestService()
    const bytes = patterned(700_000)
    const { file } = await uploadFile(service, alice, bytes, { network: 'public' })
    const root = await service.gateway.resolve(PUBLIC, file.cid)
    const entry = await service.gateway.entry(root, [])
    if (entry.type !== 'file') throw new Error(`expected a file, got ${entry.type}`)
    expect(entry.size).toBe(bytes.length)
    expect(digest(await concat(await entry.read()))).toBe(digest(bytes))
    const range = { offset: 262_000, length: 1_000 } // straddles the first leaf boundary
    expect(digest(await concat(await entry.read(range)))).toBe(digest(bytes.subarray(262_000, 263_000)))
  })

  it.each(['v0', 'v1'] as const)(
    'block - every block of a public %s file is addressable by its multihash',
    async (version) => {
      const { service } = createTestService()
      const bytes = patterned(700_000)
      const { file } = await uploadFile(service, alice, bytes, { network: 'public', cidVersion: version })
      const blocks = await referenceBlocks(bytes, version)
      expect(blocks.length).toBe(4) // three leaves and their parent
      expect(blocks.map((b) => b.cid.toString())).toContain(file.cid)
      for (const { cid, bytes: expected } of blocks) {
        // any spelling of the multihash reaches the block: CIDv0 nodes are asked for as CIDv1 too
        for (const spelling of cid.version === 0 ? [cid, cid.toV1()] : [cid]) {
          const root = await service.gateway.resolve(PUBLIC, spelling.toString())
          const block = await service.gateway.block(root, [])
          expect(digest(block.bytes), spelling.toString()).toBe(digest(expected))
        }
      }
    },
  )

  it('resolve - private content is NOT_FOUND on the shared and on the tenant gateway', async () => {
    const { service } = createTestService()
    const { file } = await uploadFile(service, alice, patterned(1_000))
    await expect(service.gateway.resolve(PUBLIC, file.cid)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    const own: GatewayScope = { kind: 'tenant', tenantId: alice.tenantId }
    await expect(service.gateway.resolve(own, file.cid)).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })

  it('resolve - a file past its expiry is NOT_FOUND', async () => {
    const test = createTestService()
    const expiresAt = new Date(START.getTime() + 60_000)
    const { file } = await uploadFile(test.service, alice, 'soon gone', { network: 'public', expiresAt })
    await test.service.gateway.resolve(PUBLIC, file.cid)
    test.clock.advance(60_000)
    await expect(test.service.gateway.resolve(PUBLIC, file.cid)).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })

  it('resolve - a deleted file is NOT_FOUND', async () => {
    const { service } = createTestService()
    const { file } = await uploadFile(service, alice, 'short lived', { network: 'public' })
    await service.files.delete(alice, 'public', file.id)
    await expect(service.gateway.resolve(PUBLIC, file.cid)).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })

  it("resolve - a tenant's gateway serves only that tenant's public content", async () => {
    const { service } = createTestService()
    const { file } = await uploadFile(service, alice, 'alice only', { network: 'public' })
    await service.gateway.resolve({ kind: 'tenant', tenantId: alice.tenantId }, file.cid)
    await expect(
      service.gateway.resolve({ kind: 'tenant', tenantId: mallory.tenantId }, file.cid),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })

  it('resolve - text that is not a CID is INVALID_INPUT', async () => {
    const { service } = createTestService()
    await expect(service.gateway.resolve(PUBLIC, 'not-a-cid')).rejects.toMatchObject({ code: 'INVALID_INPUT' })
  })

  it.each(['v0', 'v1'] as const)(
    'publicBlock - every block of a public %s file, in any spelling, with its own bytes',
    async (version) => {
      const { service } = createTestService()
      const bytes = patterned(700_000)
      await uploadFile(service, alice, bytes, { network: 'public', cidVersion: version })
      for (const { cid, bytes: expected } of await referenceBlocks(bytes, version)) {
        for (const spelling of [cid, cid.toV1()]) {
          const found = await service.gateway.publicBlock(spelling.toString())
          expect(found && digest(found), spelling.toString()).toBe(digest(expected))
        }
      }
    },
  )

  it('publicBlock - no block of private, expired, deleted or unknown content', async () => {
    const test = createTestService()
    const { service } = test
    const privateBytes = patterned(700_000, 7)
    await uploadFile(service, alice, privateBytes)
    const expiring = await uploadFile(service, alice, 'soon gone', {
      network: 'public',
      expiresAt: new Date(START.getTime() + 60_000),
    })
    const deleted = await uploadFile(service, alice, 'short lived', { network: 'public' })
    await service.files.delete(alice, 'public', deleted.file.id)
    test.clock.advance(60_000)
    const privateBlocks = await referenceBlocks(privateBytes, 'v1')
    for (const cid of [...privateBlocks.map((b) => b.cid.toString()), expiring.file.cid, deleted.file.cid]) {
      expect(await service.gateway.publicBlock(cid), cid).toBeUndefined()
    }
    await expect(service.gateway.publicBlock('not-a-cid')).rejects.toMatchObject({ code: 'INVALID_INPUT' })
  })

  it('publicRoots - every public unexpired root once, across tenants and pages; never a private one', async () => {
    const test = createTestService()
    const { service } = test
    const roots = new Set<string>()
    for (let i = 0; i < 503; i++) {
      const { file } = await uploadFile(service, i % 2 ? alice : mallory, `public ${i}`, { network: 'public' })
      roots.add(file.cid)
    }
    const again = await uploadFile(service, mallory, 'public 0', { network: 'public' })
    expect(roots.has(again.file.cid)).toBe(true)
    const { file: hidden } = await uploadFile(service, alice, 'private only')
    const { file: expiring } = await uploadFile(service, alice, 'expiring', {
      network: 'public',
      expiresAt: new Date(START.getTime() + 60_000),
    })
    const listed: string[] = []
    for await (const cid of service.gateway.publicRoots()) listed.push(cid)
    expect(listed).toEqual([...roots, expiring.cid].sort())
    expect(listed).not.toContain(hidden.cid)
    test.clock.advance(60_000)
    const afterExpiry: string[] = []
    for await (const cid of service.gateway.publicRoots()) afterExpiry.push(cid)
    expect(afterExpiry).toEqual([...roots].sort())
  })

  it('car - the CAR of public content imports elsewhere as the same root with the same bytes', async () => {
    const { service } = createTestService()
    const bytes = patterned(700_000)
    const { file } = await uploadFile(service, alice, bytes, { network: 'public' })
    const { stream } = await service.gateway.car(await service.gateway.resolve(PUBLIC, file.cid), [])
    const car = await concat(stream)
    await service.files.delete(alice, 'public', file.id)
    // once the only file is gone, the CAR alone must rebuild the content
    const imported = await uploadFile(service, mallory, car, { network: 'public', car: true }, { path: 'dag.car' })
    expect(imported.file.cid).toBe(file.cid)
    const entry = await service.gateway.entry(await service.gateway.resolve(PUBLIC, file.cid), [])
    if (entry.type !== 'file') throw new Error(`expected a file, got ${entry.type}`)
    expect(digest(await concat(await entry.read()))).toBe(digest(bytes))
  })
})
