import * as dagCbor from '@ipld/dag-cbor'
import type { BlockFetcher } from '@pinfold/core'
import { PinfoldError } from '@pinfold/core'
import { rawBlock } from '@pinfold/testing/dag-builders'
import { startTestApi, type TestApi, upload } from '@pinfold/testing/test-api'
import { carBytes } from '@pinfold/testing/uploads'
import { CID } from 'multiformats/cid'
import { sha256 } from 'multiformats/hashes/sha2'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

/**
 * Pinata's pin-by-CID endpoints over the in-process API. The content lives in a second instance;
 * the pinning instance fetches its blocks from that instance's trustless gateway (`?format=raw`).
 */

interface WireJob {
  id: string
  cid: string
  ipfs_pin_hash: string
  date_queued: string
  name: string
  status: string
  reason: string | null
  keyvalues: Record<string, string>
  host_nodes: string[]
  group_id: string | null
}

const MISSING_CID = 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy'

describe('pin by CID', () => {
  let source: TestApi
  let server: TestApi
  let held: { cid: string; bytes: Uint8Array }

  beforeAll(async () => {
    source = await startTestApi({ embedder: null })
    const bytes = new Uint8Array(700_000).map((_, i) => (i * 31) % 251)
    const { body } = await upload(source, { bytes, name: 'data.bin' }, { network: 'public' })
    held = { cid: String(body.data.cid), bytes }
    const gateway: BlockFetcher = {
      name: 'source-gateway',
      async getBlock(cid, { signal }) {
        const res = await source.fetch(`${source.url}/ipfs/${cid}?format=raw`, {
          headers: { accept: 'application/vnd.ipld.raw' },
          signal,
        })
        if (!res.ok) throw new PinfoldError('NOT_FOUND', `${res.status} for ${cid}`)
        return new Uint8Array(await res.arrayBuffer())
      },
    }
    server = await startTestApi({ embedder: null, blockFetchers: [gateway] })
  })
  afterAll(async () => {
    await server?.close()
    await source?.close()
  })

  const pin = async (body: unknown, auth?: string) => {
    const res = await server.api('/v3/files/public/pin_by_cid', { method: 'POST', body: JSON.stringify(body), auth })
    return { status: res.status, body: (await res.json()) as { data: WireJob; error?: string } }
  }
  const queue = async (query = '', auth?: string) => {
    const res = await server.api(`/v3/files/public/pin_by_cid${query}`, { auth })
    expect(res.status, query).toBe(200)
    return ((await res.json()) as { data: { jobs: WireJob[]; next_page_token: string } }).data
  }
  const drain = async () => {
    while (await server.service.pins.runNext()) {}
  }

  it('POST queues a request in the shape the SDK reads; the queue and cidPending list it; the job makes the file', async () => {
    const group = await server.api('/v3/groups/public', { method: 'POST', body: JSON.stringify({ name: 'pins' }) })
    const groupId = ((await group.json()) as { data: { id: string } }).data.id
    const hostNode = '/ip4/127.0.0.1/tcp/4001/p2p/12D3KooWGRUVh8ZmaFDsg6UKaRv9bCZNwmtRJ3bmQf3xs2AB4qnE'
    const { status, body } = await pin({
      cid: held.cid,
      name: 'copy.bin',
      group_id: groupId,
      keyvalues: { env: 'prod' },
      host_nodes: [hostNode],
    })
    expect(status).toBe(200)
    expect(body.data).toMatchObject({
      cid: held.cid,
      ipfs_pin_hash: held.cid,
      name: 'copy.bin',
      status: 'prechecking',
      reason: null,
      keyvalues: { env: 'prod' },
      host_nodes: [hostNode],
      group_id: groupId,
    })
    expect(Date.parse(body.data.date_queued)).toBeGreaterThan(Date.now() - 60_000)
    const { id } = body.data

    expect((await queue('?includesCount=false')).jobs.map((j) => j.id)).toContain(id)
    expect((await queue(`?cid=${held.cid}&status=prechecking`)).jobs.map((j) => j.id)).toEqual([id])
    expect((await queue(`?cid=${held.cid}&status=retrieving`)).jobs).toEqual([])
    const pending = await server.api(`/v3/files/public?cidPending=true&cid=${held.cid}`)
    expect(((await pending.json()) as { data: { files: { id: string; cid: string }[] } }).data.files).toMatchObject([
      { id, cid: held.cid, name: 'copy.bin', group_id: groupId },
    ])

    await drain()

    // pinned: out of the queue, a file with the request's id
    expect((await queue(`?cid=${held.cid}`)).jobs).toEqual([])
    const afterPending = await server.api('/v3/files/public?cidPending=true')
    expect(((await afterPending.json()) as { data: { files: unknown[] } }).data.files).toEqual([])
    const file = await server.api(`/v3/files/public/${id}`)
    expect(((await file.json()) as { data: unknown }).data).toMatchObject({
      id,
      cid: held.cid,
      name: 'copy.bin',
      group_id: groupId,
      keyvalues: { env: 'prod' },
      network: 'public',
    })
    const served = await server.fetch(`${server.url}/ipfs/${held.cid}`)
    expect(Buffer.from(await served.arrayBuffer()).equals(Buffer.from(held.bytes))).toBe(true)
    // a pinned request is a file now: not deletable as a request
    expect((await server.api(`/v3/files/public/pin_by_cid/${id}`, { method: 'DELETE' })).status).toBe(404)
  })

  it('a dag-cbor DAG: its links are followed, every block kept and served', async () => {
    const leaves = [await rawBlock(new TextEncoder().encode('left')), await rawBlock(new TextEncoder().encode('right'))]
    const bytes = dagCbor.encode({ title: 'a record', first: leaves[0]!.cid, more: [{ next: leaves[1]!.cid }] })
    const root = { cid: CID.createV1(dagCbor.code, await sha256.digest(bytes)), bytes }
    const car = await carBytes([root.cid], [root, ...leaves])
    const body = new FormData()
    body.append('file', new Blob([car]), 'record.car')
    body.append('network', 'public')
    body.append('car', 'true')
    expect((await source.api('/v3/files', { method: 'POST', body })).status).toBe(200)

    const { body: queued } = await pin({ cid: root.cid.toString(), name: 'record' })
    await drain()
    const file = await server.api(`/v3/files/public/${queued.data.id}`)
    expect(((await file.json()) as { data: unknown }).data).toMatchObject({
      cid: root.cid.toString(),
      mime_type: 'application/vnd.ipld.dag-cbor',
    })
    for (const block of [root, ...leaves]) {
      const res = await server.fetch(`${server.url}/ipfs/${block.cid}?format=raw`)
      expect(res.status, block.cid.toString()).toBe(200)
      expect(Buffer.from(await res.arrayBuffer()).equals(Buffer.from(block.bytes))).toBe(true)
    }
  })

  it('a CID no source has fails: listed as expired with its reason, filtered by status', async () => {
    const { body } = await pin({ cid: MISSING_CID })
    expect(body.data.name).toBe(MISSING_CID)
    await drain()
    const [job] = (await queue(`?cid=${MISSING_CID}`)).jobs
    expect(job).toMatchObject({ id: body.data.id, status: 'expired' })
    expect(job?.reason).toContain(`block ${MISSING_CID} was not found (source-gateway: 404`)
    expect((await queue('?status=expired')).jobs.map((j) => j.id)).toContain(body.data.id)
    expect((await queue('?status=over_max_size')).jobs.map((j) => j.id)).not.toContain(body.data.id)
    expect((await queue('?status=bad_host_node')).jobs).toEqual([])
  })

  it('GET pages with limit and pageToken, sorted by sort=ASC|DSC (and order=)', async () => {
    const other = await server.token({ org: 'paging' })
    const ids: string[] = []
    for (let i = 0; i < 3; i++) ids.push((await pin({ cid: MISSING_CID, name: `n${i}` }, other)).body.data.id)
    expect((await queue('?sort=ASC', other)).jobs.map((j) => j.id)).toEqual(ids)
    expect((await queue('?sort=DSC', other)).jobs.map((j) => j.id)).toEqual([...ids].reverse())
    expect((await queue('?order=DESC', other)).jobs.map((j) => j.id)).toEqual([...ids].reverse())
    const first = await queue('?limit=2', other)
    expect(first.jobs.map((j) => j.id)).toEqual(ids.slice(0, 2))
    const second = await queue(`?limit=2&pageToken=${first.next_page_token}`, other)
    expect(second.jobs.map((j) => j.id)).toEqual(ids.slice(2))
    expect(second.next_page_token).toBe('')
  })

  it("DELETE removes a queued request; another tenant's id is 404 and changes nothing", async () => {
    const { body } = await pin({ cid: MISSING_CID, name: 'to-delete' })
    const stranger = await server.token({ org: 'globex' })
    expect(
      (await server.api(`/v3/files/public/pin_by_cid/${body.data.id}`, { method: 'DELETE', auth: stranger })).status,
    ).toBe(404)
    expect((await queue('', stranger)).jobs).toEqual([])
    expect((await queue()).jobs.map((j) => j.id)).toContain(body.data.id)
    const deleted = await server.api(`/v3/files/public/pin_by_cid/${body.data.id}`, { method: 'DELETE' })
    expect(deleted.status).toBe(200)
    expect(await deleted.json()).toEqual({ data: null })
    expect((await queue()).jobs.map((j) => j.id)).not.toContain(body.data.id)
    expect((await server.api(`/v3/files/public/pin_by_cid/${body.data.id}`, { method: 'DELETE' })).status).toBe(404)
    expect((await server.api('/v3/files/public/pin_by_cid/not-an-id', { method: 'DELETE' })).status).toBe(404)
  })

  it('bad requests are 400 (404 for an unknown group) and queue nothing', async () => {
    const token = await server.token({ org: 'bad-input' })
    const cases: [unknown, number, string][] = [
      [{}, 400, 'cid'],
      [{ cid: 42 }, 400, 'cid'],
      [{ cid: 'not-a-cid' }, 400, 'is not a valid CID'],
      [{ cid: MISSING_CID, host_nodes: 'x' }, 400, 'host_nodes'],
      [{ cid: MISSING_CID, host_nodes: ['example.com'] }, 400, 'host_nodes[0] must be a multiaddr'],
      [{ cid: MISSING_CID, keyvalues: { a: { b: 1 } } }, 400, 'keyvalues'],
      [{ cid: MISSING_CID, group_id: '0190aaaa-0000-7000-8000-000000000000' }, 404, 'group not found'],
    ]
    for (const [body, status, message] of cases) {
      const res = await pin(body, token)
      expect(res.status, JSON.stringify(body)).toBe(status)
      expect(res.body.error).toContain(message)
    }
    const bad = await server.api('/v3/files/public/pin_by_cid?status=pinned', { auth: token })
    expect(bad.status).toBe(400)
    expect((await queue('', token)).jobs).toEqual([])
  })

  it('host_nodes must be multiaddrs of a host and a peer id, at most 20 of 512 characters: else 400 naming the entry, nothing queued', async () => {
    const token = await server.token({ org: 'bad-host-nodes' })
    const peer = '/p2p/12D3KooWGRUVh8ZmaFDsg6UKaRv9bCZNwmtRJ3bmQf3xs2AB4qnE'
    const good = `/ip4/203.0.113.7/tcp/4001${peer}`
    const cases: [unknown, string][] = [
      // 20 KiB of text that starts with a slash was stored as given
      [Array.from({ length: 20 }, (_, i) => `/${String(i).padEnd(1023, 'x')}`), 'host_nodes[0] is longer than 512'],
      [[good, `/${'x'.repeat(300)}`], 'host_nodes[1] must be a multiaddr'],
      [['/junk/junk'], 'host_nodes[0] must be a multiaddr'],
      [[`/ip4/999.1.1.1/tcp/1${peer}`], 'host_nodes[0] must be a multiaddr'],
      [['/ip4/203.0.113.7/tcp/4001'], "host_nodes[0] must end with the peer's id"],
      [['/ip4/203.0.113.7/tcp/4001/p2p/abc'], 'host_nodes[0] ends with /p2p/abc, not a peer id'],
      [[`/unix/${encodeURIComponent('/var/run/docker.sock')}${peer}`], "host_nodes[0] must start with the peer's host"],
      [[peer], "host_nodes[0] must start with the peer's host"],
      [[`/dnsaddr/bootstrap.libp2p.io${peer}`], "host_nodes[0] must start with the peer's host"],
      [[`/dns4/a b/tcp/1${peer}`], 'host_nodes[0] names "a b", which is not a host name'],
      [[good, good.replace('/p2p/', '/ipfs/')], 'host_nodes[1] repeats host_nodes[0]'],
      [[`/ip4/203.0.113.7/tcp/4001/p2p/1${'1'.repeat(600)}`], 'host_nodes[0] is longer than 512'],
      [Array.from({ length: 21 }, (_, i) => `/ip4/203.0.113.${i}/tcp/4001${peer}`), 'at most 20 multiaddrs'],
      [[good, 42], 'host_nodes must be an array'],
    ]
    for (const [hostNodes, message] of cases) {
      const res = await pin({ cid: MISSING_CID, host_nodes: hostNodes }, token)
      expect(res.status, message).toBe(400)
      expect(res.body.error, message).toContain(message)
    }
    expect((await queue('', token)).jobs).toEqual([])
  })

  it('host_nodes are kept in canonical form; names are kept as names, to be resolved when dialled', async () => {
    const token = await server.token({ org: 'good-host-nodes' })
    const peer = '/p2p/QmYyQSo1c1Ym7orWxLYvCrM2EmxFTANf8wXmmE7DWjhx5N'
    const given = [
      `/ip4/203.0.113.7/tcp/4001/ipfs/QmYyQSo1c1Ym7orWxLYvCrM2EmxFTANf8wXmmE7DWjhx5N`,
      `/ip6/2001:db8::1/udp/4001/quic-v1${peer}`,
      `/dns4/peer.example.com/tcp/443/wss${peer}`,
      `/dns4/LOCALHOST/tcp/4001/p2p/12D3KooWGRUVh8ZmaFDsg6UKaRv9bCZNwmtRJ3bmQf3xs2AB4qnE`,
      `/ip4/203.0.113.8/tcp/4001/p2p/bafzaajaiaejcbxfrzf6rjbiivyqdqzg4mulqffmvmjcpdbrxscwlhcgevtw3gunm`,
    ]
    const { status, body } = await pin({ cid: MISSING_CID, host_nodes: given }, token)
    expect(status, body.error).toBe(200)
    expect(body.data.host_nodes).toEqual([`/ip4/203.0.113.7/tcp/4001${peer}`, ...given.slice(1)])
    expect((await queue('', token)).jobs.map((j) => j.host_nodes)).toEqual([body.data.host_nodes])
  })

  it('the private network has no pending files', async () => {
    const res = await server.api('/v3/files/private?cidPending=true')
    expect(((await res.json()) as { data: { files: unknown[] } }).data.files).toEqual([])
  })
})

describe('pin by CID - each tenant has its share of the queue', () => {
  let server: TestApi
  beforeAll(async () => {
    server = await startTestApi({ embedder: null, pinning: { maxQueuedPerTenant: 3 } })
  })
  afterAll(async () => {
    await server?.close()
  })

  const pin = async (auth: string, name: string) => {
    const res = await server.api('/v3/files/public/pin_by_cid', {
      method: 'POST',
      body: JSON.stringify({ cid: MISSING_CID, name }),
      auth,
    })
    return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as never }
  }
  const queued = async (auth: string) => {
    const res = await server.api('/v3/files/public/pin_by_cid', { auth })
    return ((await res.json()) as { data: { jobs: { id: string; name: string }[] } }).data.jobs
  }

  it('over the share a request is 429 with a clear error and queues nothing; other tenants and a freed place are unaffected', async () => {
    const greedy = await server.token({ org: 'greedy' })
    const polite = await server.token({ org: 'polite' })
    // concurrent requests: exactly the share is queued
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => pin(greedy, `n${i}`)))
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 429, 429, 429])
    for (const refused of answers.filter((a) => a.status === 429)) {
      expect(refused.body).toEqual({
        error:
          'pin queue full: 3 pin requests of this account are queued or running; wait for some to finish or delete some',
      })
      expect(Number(refused.retryAfter)).toBeGreaterThan(0)
    }
    const mine = await queued(greedy)
    expect(mine).toHaveLength(3)
    expect((await pin(polite, 'mine')).status).toBe(200)
    // a deleted request frees its place
    expect(
      (await server.api(`/v3/files/public/pin_by_cid/${mine[0]!.id}`, { method: 'DELETE', auth: greedy })).status,
    ).toBe(200)
    expect((await pin(greedy, 'again')).status).toBe(200)
    expect((await pin(greedy, 'one more')).status).toBe(429)
    expect((await queued(greedy)).map((job) => job.name)).not.toContain('one more')
  })
})
