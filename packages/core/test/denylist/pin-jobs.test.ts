import { CarBlockIterator } from '@ipld/car'
import { describe, expect, it } from 'vitest'
import { type BlockFetcher, Denylists, ListReader } from '../../src/index.js'
import { alice, createTestService, patterned, storedNothing, uploadFile } from '../support/test-service.js'

/**
 * Pin by CID against a deny list: a blocked root is refused when asked; a root that is allowed but
 * whose DAG holds a blocked block fails its job naming the rule, and keeps nothing.
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
})
