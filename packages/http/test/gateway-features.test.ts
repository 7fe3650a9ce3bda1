import type { MemoryBlobStore } from '@pinfold/adapter-memory'
import { CID_SIGNATURE_DOMAIN, CID_SIGNATURE_TYPES } from '@pinfold/core'
import { chacha, type GatewayTestApi, startGatewayApi } from '@pinfold/testing/gateway'
import { base36 } from 'multiformats/bases/base36'
import { CID } from 'multiformats/cid'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const bytesOf = async (res: Response) => new Uint8Array(await res.arrayBuffer())
const json = async (res: Response) => (await res.json()) as { data: unknown; error?: string }

describe('private download links', () => {
  let server: GatewayTestApi
  let privateFile: Record<string, unknown>
  const secret = chacha('secret-bytes', 300_000)

  beforeAll(async () => {
    server = await startGatewayApi()
    privateFile = await server.upload(secret, { network: 'private', name: 'secret.bin' })
  })
  afterAll(() => server.close())

  const link = async (body: Record<string, unknown>, path = '/v3/files/private/download_link', org?: string) => {
    const res = await server.api(path, { method: 'POST', body: JSON.stringify(body), org })
    return { status: res.status, body: await json(res) }
  }

  it("download_link - signs a link on the API for its own host (the SDK's https://http:// prefix too); another host is a 400", async () => {
    const refused = await link({ url: `https://http://broken-host/files/${privateFile.cid}`, expires: 60 })
    expect(refused.status).toBe(400)
    expect(refused.body.error).toMatch(/broken-host is not one of this account's gateways/)
    const { status, body } = await link({ url: `https://${server.url}/files/${privateFile.cid}`, expires: 60 })
    expect(status).toBe(200)
    const url = new URL(body.data as string)
    expect(`${url.origin}${url.pathname}`).toBe(`${server.url}/files/${privateFile.cid}`)
    for (const param of ['X-Algorithm', 'X-Date', 'X-Expires', 'X-Method', 'X-Signature', 'X-User-ID']) {
      expect(url.searchParams.get(param), param).toBeTruthy()
    }
    expect(url.searchParams.get('X-Method')).toBe('GET')
    const res = await server.fetch(url)
    expect(res.status).toBe(200)
    expect(Buffer.compare(Buffer.from(await bytesOf(res)), Buffer.from(secret))).toBe(0)
    expect(res.headers.get('cache-control')).toMatch(/^private/)
    const ranged = await server.fetch(url, { headers: { range: 'bytes=1000-1999' } })
    expect(ranged.status).toBe(206)
    expect(Buffer.compare(Buffer.from(await bytesOf(ranged)), Buffer.from(secret.subarray(1000, 2000)))).toBe(0)
  })

  it('download_link - the alias, and POST /v3/files/sign with {url, method}, sign the same kind of link', async () => {
    const alias = await link({ url: `x/files/${privateFile.cid}`, expires: 60 }, '/v3/files/download_link')
    expect(alias.status).toBe(200)
    expect((await server.fetch(alias.body.data as string)).status).toBe(200)
    const signed = await link(
      { url: `${server.url}/files/${privateFile.cid}`, method: 'GET', expires: 30 },
      '/v3/files/sign',
    )
    expect(signed.status).toBe(200)
    expect((await server.fetch(signed.body.data as string)).status).toBe(200)
  })

  it('GET /files/{cid} - tampered, unsigned, expired and re-targeted links are refused', async () => {
    const good = new URL((await link({ url: `/files/${privateFile.cid}`, expires: 60 })).body.data as string)
    const variants: [string, (u: URL) => void][] = [
      [
        'tampered signature',
        (u) => {
          const sig = u.searchParams.get('X-Signature')!
          u.searchParams.set('X-Signature', `${sig[0] === 'A' ? 'B' : 'A'}${sig.slice(1)}`)
        },
      ],
      ['longer expiry', (u) => u.searchParams.set('X-Expires', '999999')],
      ['other tenant', (u) => u.searchParams.set('X-User-ID', 'someone-else')],
      ['unsigned', (u) => u.searchParams.delete('X-Signature')],
      ['extra parameter', (u) => u.searchParams.set('X-Extra', '1')],
    ]
    for (const [name, change] of variants) {
      const url = new URL(good)
      change(url)
      const res = await server.fetch(url)
      expect(res.status, name).toBe(403)
      expect(Buffer.from(await bytesOf(res)).includes(Buffer.from(secret.subarray(0, 32))), name).toBe(false)
    }
    const other = await server.upload(chacha('other', 100), { network: 'private' })
    const moved = new URL(good)
    moved.pathname = `/files/${other.cid}`
    expect((await server.fetch(moved)).status).toBe(403)

    const now = Math.floor(Date.now() / 1000)
    const expired = await link({ url: `/files/${privateFile.cid}`, expires: 10, date: now - 100 })
    expect(expired.status).toBe(200)
    expect((await server.fetch(expired.body.data as string)).status).toBe(403)
  })

  it("download_link - another tenant's CID, an unknown CID or bad input sign nothing", async () => {
    expect((await link({ url: `/files/${privateFile.cid}`, expires: 60 }, undefined, 'intruder')).status).toBe(404)
    expect(
      (await link({ url: '/files/bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy', expires: 60 })).status,
    ).toBe(404)
    expect((await link({ url: 'https://gw/nothing', expires: 60 })).status).toBe(400)
    expect((await link({ url: `/files/${privateFile.cid}`, expires: -1 })).status).toBe(400)
    expect((await link({ url: `/files/${privateFile.cid}`, expires: 60, method: 'POST' })).status).toBe(400)
    expect((await link({ url: `/files/${privateFile.cid}` })).status).toBe(400)
  })

  it('GET /files/{cid} - a deleted file is gone even with a valid link', async () => {
    const file = await server.upload(chacha('short-lived', 100), { network: 'private' })
    const url = (await link({ url: `/files/${file.cid}`, expires: 60 })).body.data as string
    expect((await server.fetch(url)).status).toBe(200)
    expect((await server.api(`/v3/files/private/${file.id}`, { method: 'DELETE' })).status).toBe(200)
    expect((await server.fetch(url)).status).toBe(404)
  })
})

describe('swaps', () => {
  let server: GatewayTestApi
  beforeAll(async () => {
    server = await startGatewayApi()
  })
  afterAll(() => server.close())

  const putSwap = (cid: string, body: Record<string, unknown>, org?: string) =>
    server.api(`/v3/files/public/swap/${cid}`, { method: 'PUT', body: JSON.stringify(body), org })

  it('swap - the shared gateway never applies swaps: a CID always serves its own bytes; the API keeps the mapping', async () => {
    const original = (await server.upload('original page', { network: 'public' })).cid as string
    const replacement = (await server.upload('replacement page', { network: 'public' })).cid as string
    const res = await putSwap(original, { swap_cid: replacement })
    expect(res.status).toBe(200)
    const swap = (await json(res)).data as { mapped_cid: string; created_at: string }
    expect(swap.mapped_cid).toBe(replacement)
    const served = await server.fetch(`${server.url}/ipfs/${original}`)
    expect(await served.text()).toBe('original page')
    expect(served.headers.get('cache-control')).toContain('immutable')
    expect(await (await server.fetch(`${server.url}/ipfs/${original}?format=raw`)).text()).toBe('original page')
    const history = await server.api(`/v3/files/public/swap/${original}?domain=gw.example.com`)
    expect(((await json(history)).data as unknown[]).length).toBe(1)
    expect((await server.api(`/v3/files/public/swap/${original}`, { method: 'DELETE' })).status).toBe(200)
    expect((await server.api(`/v3/files/public/swap/${original}`, { method: 'DELETE' })).status).toBe(404)
  })

  it('swap - another tenant holding the same bytes cannot hijack a CID on the shared gateway', async () => {
    const victim = (await server.upload(`victim page ${Math.random()}`, { network: 'public' })).cid as string
    const bytes = await (await server.fetch(`${server.url}/ipfs/${victim}`)).text()
    // the attacker re-uploads the victim's bytes, so it "holds" the CID, and swaps it to its own page
    expect((await server.upload(bytes, { network: 'public' }, 'attacker')).cid).toBe(victim)
    const evil = (await server.upload('attacker page', { network: 'public' }, 'attacker')).cid as string
    expect((await putSwap(victim, { swap_cid: evil }, 'attacker')).status).toBe(200)
    expect(await (await server.fetch(`${server.url}/ipfs/${victim}`)).text()).toBe(bytes)
  })

  it('swap - chains and cycles: a swap that would close a cycle is refused with 409, swapCid spelling is accepted', async () => {
    const [a, b, c] = await Promise.all(
      ['chain a', 'chain b', 'chain c'].map(
        async (text) => (await server.upload(text, { network: 'public' })).cid as string,
      ),
    )
    expect((await putSwap(a!, { swapCid: b })).status).toBe(200)
    expect((await putSwap(b!, { swap_cid: c })).status).toBe(200)
    expect((await putSwap(c!, { swap_cid: a })).status).toBe(409)
    expect((await putSwap(a!, { swap_cid: a })).status).toBe(409)
    expect(await (await server.fetch(`${server.url}/ipfs/${a}`)).text()).toBe('chain a')
  })

  it('swap - a CID is found by its multihash: any spelling (CIDv0, CIDv1, base36) reaches the same swap', async () => {
    const original = (await server.upload(`v0 original ${Math.random()}`, { network: 'public', cid_version: 'v0' }))
      .cid as string
    const target = (await server.upload(`v0 target ${Math.random()}`, { network: 'public', cid_version: 'v0' }))
      .cid as string
    expect(original.startsWith('Qm')).toBe(true)
    const v1 = CID.parse(original).toV1()
    expect((await putSwap(v1.toString(), { swap_cid: CID.parse(target).toV1().toString(base36) })).status).toBe(200)
    const history = await server.api(`/v3/files/public/swap/${v1.toString(base36)}`)
    expect(history.status).toBe(200)
    const [swap] = (await json(history)).data as { mapped_cid: string }[]
    expect(swap!.mapped_cid).toBe(target) // recorded under the tenant's own spellings
    expect((await server.api(`/v3/files/public/swap/${original}`, { method: 'DELETE' })).status).toBe(200)
  })

  it("swap - the target must be held by the tenant on that network; other tenants' swaps are invisible", async () => {
    const mine = (await server.upload('mine', { network: 'public' })).cid as string
    const privateOne = (await server.upload('private target', { network: 'private' })).cid as string
    const theirs = (await server.upload('theirs', { network: 'public' }, 'other-org')).cid as string
    expect((await putSwap(mine, { swap_cid: privateOne })).status).toBe(404)
    expect((await putSwap(mine, { swap_cid: theirs })).status).toBe(404)
    expect((await putSwap(theirs, { swap_cid: mine })).status).toBe(404)
    expect((await putSwap(mine, {})).status).toBe(400)
    expect((await putSwap(mine, { swap_cid: 'not-a-cid' })).status).toBe(400)
    const target = (await server.upload('target', { network: 'public' })).cid as string
    expect((await putSwap(mine, { swap_cid: target })).status).toBe(200)
    expect((await server.api(`/v3/files/public/swap/${mine}`, { org: 'other-org' })).status).toBe(404)
    expect((await server.api(`/v3/files/public/swap/${mine}`, { method: 'DELETE', org: 'other-org' })).status).toBe(404)
  })
})

describe('signatures', () => {
  let server: GatewayTestApi
  beforeAll(async () => {
    server = await startGatewayApi()
  })
  afterAll(() => server.close())
  const account = privateKeyToAccount(`0x${'11'.repeat(32)}`)
  const other = privateKeyToAccount(`0x${'22'.repeat(32)}`)

  it('signature - an EIP-712 signature over (address, cid, date) is verified, stored, read and removed', async () => {
    const file = await server.upload('signed content', { network: 'public' })
    const cid = file.cid as string
    const message = { address: account.address, cid, date: file.created_at as string }
    const signature = await account.signTypedData({
      domain: CID_SIGNATURE_DOMAIN,
      types: CID_SIGNATURE_TYPES,
      primaryType: 'Sign',
      message,
    })
    const post = (body: unknown, org?: string) =>
      server.api(`/v3/files/public/signature/${cid}`, { method: 'POST', body: JSON.stringify(body), org })
    const forged = await other.signTypedData({
      domain: CID_SIGNATURE_DOMAIN,
      types: CID_SIGNATURE_TYPES,
      primaryType: 'Sign',
      message,
    })
    expect((await post({ signature: forged, address: account.address })).status).toBe(400)
    const wrongDate = await account.signTypedData({
      domain: CID_SIGNATURE_DOMAIN,
      types: CID_SIGNATURE_TYPES,
      primaryType: 'Sign',
      message: { ...message, date: '2020-01-01T00:00:00.000Z' },
    })
    expect((await post({ signature: wrongDate, address: account.address })).status).toBe(400)
    expect((await post({ signature: 'nope', address: account.address })).status).toBe(400)
    expect((await post({ signature, address: account.address }, 'other-org')).status).toBe(404)

    const added = await post({ signature, address: account.address })
    expect(added.status).toBe(200)
    expect((await json(added)).data).toEqual({ cid, signature })
    expect((await post({ signature, address: account.address })).status).toBe(409)
    const got = await server.api(`/v3/files/public/signature/${cid}`)
    expect((await json(got)).data).toEqual({ cid, signature })
    expect((await server.api(`/v3/files/public/signature/${cid}`, { org: 'other-org' })).status).toBe(404)
    expect((await server.api(`/v3/files/public/signature/${cid}`, { method: 'DELETE' })).status).toBe(200)
    expect((await server.api(`/v3/files/public/signature/${cid}`)).status).toBe(404)
  })
})

describe('plugins marketplace', () => {
  it('marketplace - lists the built-in plugins in Pinata shape', async () => {
    const server = await startGatewayApi()
    try {
      const res = await server.api('/v3/gateways/plugins/marketplace')
      expect(res.status).toBe(200)
      const plugins = (await json(res)).data as { id: number; name: string; image: string; tags: string[] }[]
      expect(plugins.map((p) => p.name)).toEqual(['Content Addressable Attestation', 'Hot Swaps'])
      for (const plugin of plugins) {
        expect(Object.keys(plugin).sort()).toEqual(['description', 'id', 'image', 'name', 'tags'])
        // an <img src> shows it: an absolute URL whose bytes are an SVG image
        const image = await fetch(plugin.image)
        expect(image.headers.get('content-type')).toBe('image/svg+xml')
        expect(await image.text()).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/)
      }
      expect((await server.api('/v3/gateways/plugins/marketplace', { auth: null })).status).toBe(401)
    } finally {
      await server.close()
    }
  })
})

describe('expiry', () => {
  it('expiry sweep - deletes files past expires_at through the delete path, releasing blobs', async () => {
    let now = new Date('2030-01-01T00:00:00Z')
    const server = await startGatewayApi({ clock: { now: () => now } })
    try {
      const at = (seconds: number) => String(Math.floor(now.getTime() / 1000) + seconds)
      const soon = await server.upload(chacha('expiring', 1000), { network: 'public', expires_at: at(60) })
      const later = await server.upload(chacha('later', 1000), { network: 'public', expires_at: at(3600) })
      const kept = await server.upload(chacha('kept', 1000), { network: 'public' })
      const blobs = server.stores.blobs as MemoryBlobStore
      expect(blobs.count).toBe(3)
      expect(await server.service.expiry.sweep()).toBe(0)
      now = new Date(now.getTime() + 61_000)
      expect(await server.service.expiry.sweep()).toBe(1)
      expect((await server.api(`/v3/files/public/${soon.id}`)).status).toBe(404)
      expect((await server.fetch(`${server.url}/ipfs/${soon.cid}`)).status).toBe(404)
      expect((await server.api(`/v3/files/public/${later.id}`)).status).toBe(200)
      expect(blobs.count).toBe(2)
      // set later through an update, then sweep with an explicit moment
      const res = await server.api(`/v3/files/public/${kept.id}`, {
        method: 'PUT',
        body: JSON.stringify({ expires_at: Number(at(10)) }),
      })
      expect(res.status).toBe(200)
      expect(await server.service.expiry.sweep(new Date(now.getTime() + 7200_000))).toBe(2)
      expect(blobs.count).toBe(0)
    } finally {
      await server.close()
    }
  })
})
