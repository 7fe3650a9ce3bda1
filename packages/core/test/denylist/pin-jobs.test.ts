import { CarBlockIterator } from '@ipld/car'
import { describe, expect, it } from 'vitest'
import { type BlockFetcher, Denylists, ListReader } from '../../src/index.js'
import {
  alice,
  createTestService,
  mallory,
  patterned,
  storedNothing,
  uploadFile,
  utf8,
} from '../support/test-service.js'

/**
 * Pin by CID against a deny list: a blocked root is refused when asked; a root that is allowed but
 * whose DAG holds a blocked block fails its job naming the rule, and keeps nothing. Each refusal is
 * a `content.blocked` entry in the tenant's audit log (once per tenant, CID and rule), as is an
 * upload that lands on blocked content (accepted, never served publicly).
 */
describe('deny lists: pin by CID', () => {
  async function setUp() {
    const origin = createTestService()
    // a root and four 256 KiB leaves
    const { file } = await uploadFile(origin.service, alice, patterned(1024 * 1024, 5), { network: 'public' })
    const leaves: string[] = []
    const fetcher: BlockFetcher = {
      name: 'origin',
      async getBlock(cid, { signal }) {
        const root = await origin.service.gateway.resolve({ kind: 'public' }, cid, { signal })
        return (await origin.service.gateway.block(root, [], { signal })).bytes
      },
    }
    const car = await origin.service.gateway.car(await origin.service.gateway.resolve({ kind: 'public' }, file.cid), [])
    for await (const block of await CarBlockIterator.fromIterable(car.stream)) {
      if (block.cid.toString() !== file.cid) leaves.push(block.cid.toString())
    }
    const lists = new Denylists()
    const reader = new ListReader(lists.list('pins.deny'), () => {})
    const test = createTestService({ blockFetchers: [fetcher], denylists: lists })
    const block = (cid: string) => reader.push(new TextEncoder().encode(`/ipfs/${cid}\n`))
    return { root: file.cid, leaves, test, block }
  }

  it('add - a blocked CID is refused at once with BLOCKED, naming list and line; nothing is queued', async () => {
    const { root, test, block } = await setUp()
    block(root)
    await expect(test.service.pins.add(alice, { cid: root })).rejects.toMatchObject({
      code: 'BLOCKED',
      message: expect.stringContaining('(pins.deny:1)'),
      details: { status: 410, list: 'pins.deny', line: 1 },
    })
    expect((await test.service.pins.list(alice)).requests).toEqual([])
  })

  it('job - a blocked block inside an allowed root fails the job, naming the rule, and keeps nothing', async () => {
    const { root, leaves, test, block } = await setUp()
    expect(leaves).toHaveLength(4)
    const { id } = await test.service.pins.add(alice, { cid: root })
    block(leaves[2]!)
    await test.service.pins.runNext()
    const request = await test.service.pins.get(alice, id)
    expect(request.state).toBe('failed')
    expect(request.reason).toMatch(`${leaves[2]} is blocked by the operator's deny list (pins.deny:1)`)
    expect(await storedNothing(test)).toBe(true)
  })

  const blockedEvents = async (test: Awaited<ReturnType<typeof setUp>>['test'], actor = alice) =>
    (await test.service.events.list(actor, { types: ['content.blocked'] })).events

  it('add - each refusal is recorded as content.blocked for the tenant that asked, once per CID and rule', async () => {
    const { root, test, block } = await setUp()
    block(root)
    for (const actor of [alice, alice, mallory]) {
      await expect(test.service.pins.add(actor, { cid: root })).rejects.toMatchObject({ code: 'BLOCKED' })
    }
    const [event, ...more] = await blockedEvents(test)
    expect(more).toEqual([])
    expect(event).toMatchObject({
      tenantId: 'acme',
      actor: { kind: 'user', id: 'alice' },
      target: { kind: 'cid', id: root },
      data: { cid: root, list: 'pins.deny', line: 1, site: 'pin' },
    })
    expect(await blockedEvents(test, mallory)).toHaveLength(1)
    // a later rule on the same CID is another rule: recorded again
    block(root)
    await expect(test.service.pins.add(alice, { cid: root })).rejects.toMatchObject({ code: 'BLOCKED' })
    expect((await blockedEvents(test)).map((e) => e.data.line)).toEqual([2, 1])
  })

  it('job - the failed job’s pin.failed and a content.blocked naming the block are one entry pair', async () => {
    const { root, leaves, test, block } = await setUp()
    const { id } = await test.service.pins.add(alice, { cid: root })
    block(leaves[1]!)
    await test.service.pins.runNext()
    const events = (await test.service.events.list(alice, { types: ['pin.failed', 'content.blocked'] })).events
    expect(events.map((e) => e.type).sort()).toEqual(['content.blocked', 'pin.failed'])
    expect(events.find((e) => e.type === 'content.blocked')).toMatchObject({
      actor: { kind: 'system', id: 'pin-job' },
      target: { kind: 'cid', id: leaves[1] },
      data: { list: 'pins.deny', line: 1, site: 'pin', pinRequestId: id, root },
    })
  })

  it('upload - content a rule blocks is accepted, and its file.created comes with a content.blocked', async () => {
    const { test, block } = await setUp()
    const first = await uploadFile(test.service, alice, utf8('takedown notice target'), { network: 'public' })
    expect(await blockedEvents(test)).toEqual([])
    block(first.file.cid)
    const again = await uploadFile(test.service, alice, utf8('takedown notice target'), { network: 'private' })
    const [event, ...more] = await blockedEvents(test)
    expect(more).toEqual([])
    expect(event).toMatchObject({
      target: { kind: 'cid', id: first.file.cid },
      data: { list: 'pins.deny', line: 1, site: 'upload', fileId: again.file.id, network: 'private' },
    })
  })

  it('upload - told once per rule: the held-content scan after a list refresh, and a second upload, find it told', async () => {
    const { root, test, block } = await setUp()
    const stop = await test.service.heldContent.start({ pauseMs: 0 })
    try {
      await test.service.heldContent.settled()
      block(root)
      const bytes = patterned(1024 * 1024, 5) // the bytes whose root `setUp` made
      const { file } = await uploadFile(test.service, alice, bytes, { network: 'public' })
      expect(file.cid).toBe(root)
      // the list read again whole: a pass over every held root checks this one against the rule
      test.service.heldContent.listReplaced('pins.deny')
      await test.service.heldContent.settled()
      expect(test.service.heldContent.status()).toMatchObject({ rootsBlocked: 1, noticesRecorded: 0 })
      await uploadFile(test.service, alice, bytes, { network: 'private' })
      await uploadFile(test.service, mallory, bytes, { network: 'public' })
    } finally {
      await stop()
    }
    expect((await blockedEvents(test)).map((e) => [e.data.site, e.data.line])).toEqual([['upload', 1]])
    // another tenant is told on its own
    expect((await blockedEvents(test, mallory)).map((e) => [e.data.site, e.data.line])).toEqual([['upload', 1]])
  })
})
