/**
 * The Delegated Routing V1 HTTP API's provider lookup (GET /routing/v1/providers/{cid}) for what this
 * deployment holds: public content is provided by the deployment itself, private content never.
 */
import { decode as decodeDagPb } from '@ipld/dag-pb'
import { chacha } from '@pinfold/testing/gateway'
import { startTestApi, type TestApi, upload } from '@pinfold/testing/test-api'
import { base58btc } from 'multiformats/bases/base58'
import { CID } from 'multiformats/cid'
import * as raw from 'multiformats/codecs/raw'
import { decode as decodeDigest } from 'multiformats/hashes/digest'
import { identity } from 'multiformats/hashes/identity'
import { sha256 } from 'multiformats/hashes/sha2'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { IpfsPeer } from '../src/index.js'

const PEER_ID = '12D3KooWMnQ7RqpkKeLrFsa98aqULs7JhMCJorU5ZPW3PNUVyWBs'
const NODE: IpfsPeer = {
  peerId: PEER_ID,
  addrs: [`/ip4/127.0.0.1/tcp/4001/p2p/${PEER_ID}`, `/ip4/127.0.0.1/tcp/4002/ws/p2p/${PEER_ID}`],
}

describe('delegated routing - GET /routing/v1/providers/{cid}', () => {
  let withNode: TestApi
  let withoutNode: TestApi
  let publicCid: string
  let innerCid: string
  let privateCid: string

  beforeAll(async () => {
    withNode = await startTestApi({ url: 'https://files.example.com', ipfsPeer: () => NODE })
    withoutNode = await startTestApi({ url: 'http://127.0.0.1:8080', storage: 'memory' })
    const big = chacha('routing-public', 600_000) // three leaves under a root
    const res = await upload(withNode, { bytes: big }, { network: 'public' })
    publicCid = res.body.data.cid as string
    const root = await withNode.fetch(`https://files.example.com/ipfs/${publicCid}?format=raw`)
    // any inner block is findable too: the first link of the root node
    innerCid = decodeDagPb(new Uint8Array(await root.arrayBuffer())).Links[0]!.Hash.toString()
    const secret = await upload(withNode, { bytes: 'private bytes' }, { network: 'private' })
    privateCid = secret.body.data.cid as string
    await upload(withoutNode, { bytes: big }, { network: 'public' })
  })
  afterAll(async () => {
    await withNode?.close()
    await withoutNode?.close()
  })

  it('public content - the node over bitswap and the gateway over HTTP, in the Peer Schema', async () => {
    const res = await withNode.fetch(`https://files.example.com/routing/v1/providers/${publicCid}`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    const body = (await res.json()) as { Providers: Record<string, unknown>[] }
    expect(body.Providers).toEqual([
      {
        Schema: 'peer',
        ID: PEER_ID,
        Addrs: ['/ip4/127.0.0.1/tcp/4001', '/ip4/127.0.0.1/tcp/4002/ws'],
        Protocols: ['transport-bitswap'],
      },
      {
        Schema: 'peer',
        ID: expect.any(String),
        Addrs: ['/dns/files.example.com/tcp/443/https'],
        Protocols: ['transport-ipfs-gateway-http'],
      },
    ])
    // the HTTP provider's id is the identity multihash of the gateway's URL, in base58btc (Helia reads it back as a URL)
    const digest = decodeDigest(base58btc.baseDecode(body.Providers[1]!.ID as string))
    expect(digest.code).toBe(identity.code)
    expect(new TextDecoder().decode(digest.digest)).toBe('https://files.example.com')
  })

  it('any block of public content, under any spelling of its CID', async () => {
    for (const cid of [innerCid, CID.parse(publicCid).toV1().toString(), CID.parse(innerCid).toV1().toString()]) {
      const res = await withNode.fetch(`https://files.example.com/routing/v1/providers/${cid}`)
      expect(res.status, cid).toBe(200)
    }
  })

  it('Accept: application/x-ndjson - one record per line', async () => {
    const res = await withNode.fetch(`https://files.example.com/routing/v1/providers/${publicCid}`, {
      headers: { accept: 'application/x-ndjson' },
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/x-ndjson')
    const lines = (await res.text()).trimEnd().split('\n')
    expect(lines.map((line) => JSON.parse(line).Protocols)).toEqual([
      ['transport-bitswap'],
      ['transport-ipfs-gateway-http'],
    ])
  })

  it('filter-protocols (IPIP-484) - only the providers speaking one of them; none left is a 404', async () => {
    const protocolsFor = async (filter: string) => {
      const res = await withNode.fetch(
        `https://files.example.com/routing/v1/providers/${publicCid}?filter-protocols=${filter}`,
      )
      if (res.status !== 200) return res.status
      return ((await res.json()) as { Providers: { Protocols: string[] }[] }).Providers.map((p) => p.Protocols[0])
    }
    expect(await protocolsFor('transport-bitswap')).toEqual(['transport-bitswap'])
    expect(await protocolsFor('transport-ipfs-gateway-http')).toEqual(['transport-ipfs-gateway-http'])
    expect(await protocolsFor('transport-graphsync-filecoinv1,transport-bitswap')).toEqual(['transport-bitswap'])
    expect(await protocolsFor('transport-graphsync-filecoinv1')).toBe(404)
  })

  it('without a node - only the gateway, addressed by its own URL', async () => {
    const res = await withoutNode.fetch(`http://127.0.0.1:8080/routing/v1/providers/${publicCid}`)
    expect(res.status).toBe(200)
    const body = (await res.json()) as { Providers: { Addrs: string[]; Protocols: string[] }[] }
    expect(body.Providers).toHaveLength(1)
    expect(body.Providers[0]).toMatchObject({
      Addrs: ['/ip4/127.0.0.1/tcp/8080/http'],
      Protocols: ['transport-ipfs-gateway-http'],
    })
  })

  it('private content - 404, and the answer says nothing about it', async () => {
    const privateRes = await withNode.fetch(`https://files.example.com/routing/v1/providers/${privateCid}`)
    expect(privateRes.status).toBe(404)
    const privateBody = await privateRes.text()
    const unknown = CID.createV1(raw.code, await sha256.digest(new TextEncoder().encode('never stored')))
    const unknownRes = await withNode.fetch(`https://files.example.com/routing/v1/providers/${unknown}`)
    expect(unknownRes.status).toBe(404)
    // the same answer as for a CID nobody stored: nothing tells private content apart
    expect(privateBody).toBe(await unknownRes.text())
    expect(privateBody).not.toContain(PEER_ID)
  })

  it('not a CID - a JSON 400', async () => {
    const res = await withNode.fetch('https://files.example.com/routing/v1/providers/not-a-cid')
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({ error: expect.stringContaining('not a valid CID') })
  })
})
