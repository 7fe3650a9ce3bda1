import type { PinataSDK } from 'pinata'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pinataFor } from '../support/sdk.js'
import { startTestServer, type TestServer } from '../support/server.js'

/**
 * The official SDK's pin-by-CID calls against Pinfold: `upload.public.cid()`, `files.public.queue()`
 * with its filters, `files.public.deletePinRequest()` and `files.public.list().cidPending()`. The
 * content lives on a second server, whose gateway is the pinning server's `PINFOLD_IPFS_GATEWAYS`.
 * The pinning server runs no worker (`PINFOLD_PIN_POLL_MS=0`) so requests stay queued while the
 * queue is read; the test runs the jobs itself.
 */

const NOWHERE = 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy'

describe('official SDK - pin by CID', () => {
  let source: TestServer
  let server: TestServer
  let pinata: PinataSDK
  let held: string

  beforeAll(async () => {
    source = await startTestServer({}, { storage: 'memory' })
    const publisher = pinataFor(source.url, await source.token())
    held = (await publisher.upload.public.file(new File(['pinned through the SDK'], 'sdk.txt'))).cid
    server = await startTestServer(
      { PINFOLD_IPFS_GATEWAYS: source.url, PINFOLD_PIN_POLL_MS: '0' },
      { storage: 'memory' },
    )
    pinata = pinataFor(server.url, await server.token())
  })
  afterAll(async () => {
    await server?.close()
    await source?.close()
  })

  const runJobs = async () => {
    while (await server.service.pins.runNext()) {}
  }

  it('upload.public.cid - queues the request; queue and cidPending list it; the job makes the file it names', async () => {
    const group = await pinata.groups.public.create({ name: 'sdk-pins' })
    const peer = '/ip4/127.0.0.1/tcp/4001/p2p/12D3KooWGRUVh8ZmaFDsg6UKaRv9bCZNwmtRJ3bmQf3xs2AB4qnE'
    const queued = await pinata.upload.public
      .cid(held)
      .name('sdk-copy.txt')
      .keyvalues({ via: 'sdk' })
      .group(group.id)
      .peerAddress([peer])
    expect(queued).toMatchObject({
      cid: held,
      name: 'sdk-copy.txt',
      status: 'prechecking',
      keyvalues: { via: 'sdk' },
      host_nodes: [peer],
      group_id: group.id,
    })
    expect(typeof queued.id).toBe('string')
    expect(Number.isNaN(Date.parse(queued.date_queued))).toBe(false)

    const listed = await pinata.files.public.queue().cid(held).status('prechecking')
    expect(listed.jobs.map((job) => job.id)).toEqual([queued.id])
    expect(listed.next_page_token).toBe('')
    const pending = await pinata.files.public.list().cidPending(true)
    expect(pending.files).toMatchObject([{ id: queued.id, cid: held, name: 'sdk-copy.txt' }])

    await runJobs()

    expect((await pinata.files.public.queue().cid(held)).jobs).toEqual([])
    expect((await pinata.files.public.list().cidPending(true)).files).toEqual([])
    const file = await pinata.files.public.get(queued.id)
    expect(file).toMatchObject({
      id: queued.id,
      cid: held,
      name: 'sdk-copy.txt',
      group_id: group.id,
      keyvalues: { via: 'sdk' },
    })
    const served = await fetch(`${server.url}/ipfs/${held}`)
    expect(await served.text()).toBe('pinned through the SDK')
  })

  it('upload.public.cid - without a name the request is named after its CID; a CID nobody has ends expired', async () => {
    const queued = await pinata.upload.public.cid(NOWHERE)
    expect(queued).toMatchObject({ cid: NOWHERE, name: NOWHERE, status: 'prechecking', keyvalues: {} })
    await runJobs()
    const [job] = (await pinata.files.public.queue().cid(NOWHERE).status('expired')).jobs
    expect(job).toMatchObject({ id: queued.id, status: 'expired' })
    expect((await pinata.files.public.queue().cid(NOWHERE).status('prechecking')).jobs).toEqual([])
  })

  it('files.public.queue - sort, pageLimit, pageToken, and .all() walks every page', async () => {
    const sdk = pinataFor(server.url, await server.token({ org: 'sdk-queue' }))
    const ids: string[] = []
    for (let i = 0; i < 5; i++) ids.push((await sdk.upload.public.cid(NOWHERE).name(`q${i}`)).id)
    expect((await sdk.files.public.queue().sort('ASC')).jobs.map((j) => j.id)).toEqual(ids)
    expect((await sdk.files.public.queue().sort('DSC')).jobs.map((j) => j.id)).toEqual([...ids].reverse())
    const first = await sdk.files.public.queue().pageLimit(2)
    expect(first.jobs.map((j) => j.id)).toEqual(ids.slice(0, 2))
    const second = await sdk.files.public.queue().pageLimit(2).pageToken(first.next_page_token)
    expect(second.jobs.map((j) => j.id)).toEqual(ids.slice(2, 4))
    expect((await sdk.files.public.queue().pageLimit(2).all()).map((j) => j.id)).toEqual(ids)
  })

  it('deletePinRequest - removes a queued request; then, and for another tenant, the SDK reports 404', async () => {
    const queued = await pinata.upload.public.cid(NOWHERE).name('to-delete')
    const stranger = pinataFor(server.url, await server.token({ org: 'sdk-stranger' }))
    await expect(stranger.files.public.deletePinRequest(queued.id)).rejects.toMatchObject({ statusCode: 404 })
    expect(await pinata.files.public.deletePinRequest(queued.id)).toBe('OK')
    expect((await pinata.files.public.queue().cid(NOWHERE).status('prechecking')).jobs).toEqual([])
    await expect(pinata.files.public.deletePinRequest(queued.id)).rejects.toMatchObject({ statusCode: 404 })
  })
})
