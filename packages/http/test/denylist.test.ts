import { type ContentBlockedEvent, Denylists, ListReader } from '@pinfold/core'
import { chacha, type GatewayTestApi, readVerifiedCar, requestOnHost, startGatewayApi } from '@pinfold/testing/gateway'
import { CID } from 'multiformats/cid'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

/**
 * Deny lists applied everywhere content leaves: one list, read as the server reads a file, blocks
 * a file, a file inside an allowed folder, a path below a folder (with a 451 hint), and every route
 * that could hand them out answers with a refusal, logged (the service's observer) with list and line.
 * Memory stores only (`startGatewayApi`): nothing here depends on the storage.
 */
describe('deny lists: every route refuses blocked content', () => {
  let server: GatewayTestApi
  const lists = new Denylists()
  const events: ContentBlockedEvent[] = []
  let blocked: string // a public file a CID rule names
  let folder: string // an allowed folder: b.txt inside it is blocked, a/ is blocked by a path rule
  let inner: string // b.txt's CID
  let allowed: string // a file no rule names
  let privateFile: { id: string; cid: string }

  beforeAll(async () => {
    server = await startGatewayApi({
      denylists: lists,
      subdomainHost: 'gw.example',
      publicUrl: 'http://api.pinfold.example',
      onContentBlocked: (event) => events.push(event),
      gatewayDomain: 'sites.example',
      resolveTxt: async (name) => {
        if (name === '_dnslink.shop.sites.example') return [[`dnslink=/ipfs/${folder}`]]
        throw Object.assign(new Error(`queryTxt ENOTFOUND ${name}`), { code: 'ENOTFOUND' })
      },
    })
    blocked = (await server.upload('phishing page', { network: 'public', name: 'bad.html' })).cid as string
    allowed = (await server.upload('a fine page', { network: 'public', name: 'fine.html' })).cid as string
    folder = await server.uploadFolder([
      { path: 'site/a/one.txt', bytes: 'one' },
      { path: 'site/b.txt', bytes: 'malware bytes' },
      { path: 'site/c.txt', bytes: 'fine' },
    ])
    const root = await server.service.gateway.resolve({ kind: 'public' }, folder)
    inner = (await server.service.gateway.entry(root, ['b.txt'])).cid.toString()
    const secret = await server.upload('a private takedown', { network: 'private', name: 'p.txt' })
    privateFile = { id: secret.id as string, cid: secret.cid as string }
    const reader = new ListReader(lists.list('takedowns.deny'), (problem) => {
      throw new Error(`${problem.line}: ${problem.reason}`)
    })
    reader.push(
      new TextEncoder().encode(
        [
          'name: takedowns',
          '---',
          `/ipfs/${blocked}`,
          `/ipfs/${inner}`,
          `/ipfs/${folder}/a/* gateway_status:451`,
          `/ipfs/${privateFile.cid}`,
          '',
        ].join('\n'),
      ),
    )
  })
  afterAll(() => server.close())

  const onHost = (host: string, path: string, headers?: Record<string, string>) =>
    requestOnHost(server, host, path, { headers })
  const api = 'api.pinfold.example'

  type Row = [
    name: string,
    host: string | (() => string),
    path: () => string,
    headers: Record<string, string>,
    status: number,
    line: number,
  ]
  it.each<Row>([
    ['path gateway', api, () => `/ipfs/${blocked}`, {}, 410, 3],
    [
      'path gateway, another codec with the same multihash',
      api,
      () => `/ipfs/${CID.createV1(0x70, CID.parse(blocked).multihash)}`,
      {},
      410,
      3,
    ],
    ['path gateway, a browser', api, () => `/ipfs/${blocked}`, { accept: 'text/html' }, 410, 3],
    ['subdomain gateway', () => `${blocked}.ipfs.gw.example`, () => '/', {}, 410, 3],
    ['trustless raw block', api, () => `/ipfs/${blocked}?format=raw`, {}, 410, 3],
    ['trustless CAR', api, () => `/ipfs/${blocked}`, { accept: 'application/vnd.ipld.car' }, 410, 3],
    ['a blocked file inside an allowed folder', api, () => `/ipfs/${folder}/b.txt`, {}, 410, 4],
    ['its raw block through the folder', api, () => `/ipfs/${folder}/b.txt?format=raw`, {}, 410, 4],
    ['a path rule with its hint', api, () => `/ipfs/${folder}/a/one.txt`, {}, 451, 5],
    ['the routing endpoint (withdrawn: no provider)', api, () => `/routing/v1/providers/${blocked}`, {}, 404, 3],
  ])('%s - refused', async (_, host, path, headers, status, line) => {
    events.length = 0
    const res = await onHost(typeof host === 'function' ? host() : host, path(), headers)
    expect(res.status).toBe(status)
    if (headers.accept === 'text/html') expect(res.body).toMatch(/<h1>410 error<\/h1>.*takedowns\.deny:3/)
    else if (status !== 404) expect(JSON.parse(res.body).error).toMatch(`takedowns.deny:${line}`)
    expect(events.map(({ list, line }) => ({ list, line }))).toContainEqual({ list: 'takedowns.deny', line })
  })

  it('allowed content is served: the folder, its other files, another file', async () => {
    expect((await onHost(api, `/ipfs/${folder}/c.txt`)).body).toBe('fine')
    expect((await onHost(api, `/ipfs/${allowed}`)).status).toBe(200)
    expect((await onHost(`${CID.parse(allowed).toV1()}.ipfs.gw.example`, '/')).status).toBe(200)
    expect((await onHost(api, `/routing/v1/providers/${allowed}`)).status).toBe(200)
  })

  it('a CAR of the allowed folder never carries the blocked block', async () => {
    const res = await server.fetch(`${server.url}/ipfs/${folder}?format=car`)
    let body: Uint8Array | undefined
    try {
      body = new Uint8Array(await res.arrayBuffer())
    } catch {
      body = undefined // the stream stopped at the blocked block
    }
    if (body) {
      const blocks = await readVerifiedCar(body).catch(() => undefined)
      expect(blocks?.blocks.map((block) => block.cid.toString()) ?? []).not.toContain(inner)
    }
  })

  it('bitswap and the reprovider: a blocked block is not had, a blocked root is not announced', async () => {
    expect(await server.service.gateway.publicBlock(blocked)).toBeUndefined()
    expect(await server.service.gateway.publicBlock(allowed)).toBeInstanceOf(Uint8Array)
    const roots: string[] = []
    for await (const root of server.service.gateway.publicRoots()) roots.push(root)
    expect(roots).toContain(allowed)
    expect(roots).not.toContain(blocked)
  })

  it('pin by CID and the Pinning Service API refuse a blocked CID with a clear reason', async () => {
    const pin = await server.api('/v3/files/public/pin_by_cid', {
      method: 'POST',
      body: JSON.stringify({ cid: blocked }),
    })
    expect(pin.status).toBe(410)
    expect(((await pin.json()) as { error: string }).error).toMatch(
      /is blocked by the operator's deny list \(takedowns\.deny:3\)/,
    )
    const psa = await server.api('/psa/pins', { method: 'POST', body: JSON.stringify({ cid: blocked }) })
    expect(psa.status).toBe(410)
    expect(((await psa.json()) as { error: { reason: string } }).error.reason).toBe('CONTENT_BLOCKED')
  })

  it('private downloads are refused too (denylistPrivateReads defaults to true)', async () => {
    const link = await server.api('/v3/files/private/download_link', {
      method: 'POST',
      body: JSON.stringify({ url: `http://${api}/files/${privateFile.cid}`, expires: 60 }),
    })
    expect(link.status).toBe(200)
    const url = ((await link.json()) as { data: string }).data
    expect((await server.fetch(url)).status).toBe(410)
    expect(events.at(-1)).toMatchObject({ list: 'takedowns.deny', line: 6, site: 'download' })
  })

  it('operator rules: added, applied at once (to a block inside a whole file too), listed, removed; a bad one is INVALID_INPUT', async () => {
    const big = (await server.upload(chacha('big', 600_000), { network: 'public', name: 'big.bin' })).cid as string
    const car = await readVerifiedCar(
      new Uint8Array(await (await server.fetch(`${server.url}/ipfs/${big}?format=car`)).arrayBuffer()),
    )
    const leaf = car.blocks.at(-1)!.cid.toString()
    expect(leaf).not.toBe(big)
    const rule = await server.service.denylist.addRule(`/ipfs/${leaf} reason:malware`)
    expect(rule).toMatchObject({ rule: `/ipfs/${leaf} reason:malware`, line: 1 })
    const refused = await onHost(api, `/ipfs/${big}`)
    expect(refused.status).toBe(410)
    expect(JSON.parse(refused.body).error).toMatch('operator:1')
    expect(await server.service.denylist.listRules()).toEqual([rule])
    await server.service.denylist.removeRule(rule.id)
    expect((await onHost(api, `/ipfs/${big}`)).status).toBe(200)
    await expect(server.service.denylist.addRule('/ipfs/not-a-cid')).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: 'not a deny rule: "not-a-cid" is not a CID',
    })
    await expect(server.service.denylist.removeRule(rule.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })

  it('a DNSLink website: a rule on its name blocks the site, one on a path that path', async () => {
    const claim = await server.api('/v3/gateways/domains', { method: 'POST', body: JSON.stringify({ name: 'shop' }) })
    expect(claim.status).toBe(201)
    const host = 'shop.sites.example'
    expect((await onHost(host, '/c.txt')).body).toBe('fine')
    expect((await onHost(host, '/a/one.txt')).status).toBe(451) // the folder's own path rule
    const onPath = await server.service.denylist.addRule(`/ipns/${host}/c.txt`)
    expect((await onHost(host, '/c.txt')).status).toBe(410)
    expect((await onHost(host, '/')).status).toBe(200)
    const onName = await server.service.denylist.addRule(`/ipns/${host}`)
    expect((await onHost(host, '/')).status).toBe(410)
    for (const rule of [onPath, onName]) await server.service.denylist.removeRule(rule.id)
    expect((await onHost(host, '/c.txt')).status).toBe(200)
  })

  it('/readyz names each list in force and its rules', async () => {
    const res = await onHost(api, '/readyz')
    expect(JSON.parse(res.body).denylists).toContainEqual({ list: 'takedowns.deny', rules: 4, state: 'ok' })
  })
})
