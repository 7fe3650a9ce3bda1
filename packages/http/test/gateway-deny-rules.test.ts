import { requestOnHost } from '@pinfold/testing/gateway'
import { startTestApi, type TestApi } from '@pinfold/testing/test-api'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

/**
 * A tenant's own deny rules (`/v3/gateways/deny_rules`): a rule refuses content on that tenant's
 * gateway hosts only (410, its hint, an HTML page for browsers), never on another tenant's
 * gateway or the shared public gateway; another tenant can neither see nor remove it (404); a bad
 * rule is a 400 that stores nothing; every change is in the tenant's audit log. On the storage
 * `PINFOLD_TEST_STORAGE` names (memory, embedded PGlite, PostgreSQL).
 */
describe("deny lists: a tenant's own rules on its own gateways", () => {
  let server: TestApi
  const OTHER = 'globex'
  const mine = 'acme.sites.example'
  const theirs = 'globex.sites.example'
  const api = 'api.pinfold.example'
  let page: string // public content both tenants hold
  let video: string // the same, another file
  let shared: string // a third

  const upload = async (bytes: string, org?: string) => {
    const body = new FormData()
    body.append('file', new Blob([bytes]), 'f.html')
    body.append('network', 'public')
    const res = await server.api('/v3/files', { method: 'POST', body, org })
    expect(res.status).toBe(200)
    return ((await res.json()) as { data: { cid: string } }).data.cid
  }
  const rules = (init: { method?: string; body?: unknown; org?: string; path?: string } = {}) =>
    server.api(`/v3/gateways/deny_rules${init.path ?? ''}`, {
      method: init.method ?? 'GET',
      org: init.org,
      ...(init.body !== undefined && { body: JSON.stringify(init.body) }),
    })
  const add = async (rule: string, org?: string) => {
    const res = await rules({ method: 'POST', body: { rule }, org })
    expect(res.status).toBe(201)
    return ((await res.json()) as { data: { id: string; rule: string; line: number } }).data
  }
  const status = async (host: string, path: string, headers?: Record<string, string>) =>
    (await requestOnHost(server, host, path, { headers })).status

  beforeAll(async () => {
    server = await startTestApi({
      publicUrl: `http://${api}`,
      gatewayDomain: 'sites.example',
      subdomainHost: 'gw.example',
      embedder: null,
    })
    for (const org of [undefined, OTHER]) {
      const name = org ?? 'acme'
      const claim = await server.api('/v3/gateways/domains', { method: 'POST', body: JSON.stringify({ name }), org })
      expect(claim.status).toBe(201)
    }
    page = await upload('<p>a page</p>')
    video = await upload('a video')
    shared = await upload('shared')
    for (const text of ['<p>a page</p>', 'a video', 'shared']) await upload(text, OTHER)
    // an embedded (PGlite) store's first open is slow on a loaded machine
  }, 120_000)
  afterAll(() => server.close())

  it('a rule refuses on its own gateway only: 410 (JSON, an HTML page for browsers), its hint', async () => {
    const rule = await add(`/ipfs/${page}`)
    expect(rule).toMatchObject({ rule: `/ipfs/${page}`, line: 1 })
    const refused = await requestOnHost(server, mine, `/ipfs/${page}`)
    expect(refused.status).toBe(410)
    expect(JSON.parse(refused.body).error).toBe(`${page} is blocked by this gateway's deny list (tenant:1)`)
    const browser = await requestOnHost(server, mine, `/ipfs/${page}`, { headers: { accept: 'text/html' } })
    expect(browser.status).toBe(410)
    expect(browser.body).toMatch(/<h1>410 error<\/h1>/)
    expect(await status(mine, `/ipfs/${page}?format=raw`)).toBe(410)
    expect(await status(mine, `/ipfs/${page}`, { accept: 'application/vnd.ipld.car' })).toBe(410)
    // never on another tenant's gateway, nor the shared public, subdomain and trustless gateways
    expect(await status(theirs, `/ipfs/${page}`)).toBe(200)
    expect(await status(api, `/ipfs/${page}`)).toBe(200)
    expect(await status(api, `/ipfs/${page}?format=raw`)).toBe(200)
    expect(await status(`${page}.ipfs.gw.example`, '/')).toBe(200)

    await add(`/ipfs/${video} gateway_status:451`)
    expect(await status(mine, `/ipfs/${video}`)).toBe(451)
    expect(await status(theirs, `/ipfs/${video}`)).toBe(200)
  })

  it('isolation: another tenant does not see the rules and cannot remove one (404); the owner can', async () => {
    const rule = await add(`/ipfs/${shared}`)
    const listed = async (org?: string) =>
      ((await (await rules({ org })).json()) as { data: { rules: { id: string }[] } }).data.rules.map((r) => r.id)
    expect(await listed()).toContain(rule.id)
    expect(await listed(OTHER)).toEqual([])
    const foreign = await rules({ method: 'DELETE', path: `/${rule.id}`, org: OTHER })
    expect(foreign.status).toBe(404)
    expect(await status(mine, `/ipfs/${shared}`)).toBe(410)
    expect((await rules({ method: 'DELETE', path: `/${rule.id}` })).status).toBe(200)
    expect(await status(mine, `/ipfs/${shared}`)).toBe(200)
    expect(await listed()).not.toContain(rule.id)
    expect((await rules({ method: 'DELETE', path: `/${rule.id}` })).status).toBe(404)
  })

  it('a bad rule is a 400 naming why, and stores nothing', async () => {
    const before = await (await rules()).json()
    for (const rule of ['/ipfs/not-a-cid', 'no slash', '# a comment', `/ipfs/${page}\n/ipfs/${video}`]) {
      const res = await rules({ method: 'POST', body: { rule } })
      expect(res.status, rule).toBe(400)
      expect(((await res.json()) as { error: string }).error).toMatch(/rule/)
    }
    expect(await (await rules()).json()).toEqual(before)
  })

  it("a tenant's ! rule never serves what the operator's list refuses", async () => {
    const operator = await server.service.denylist.addRule(`/ipfs/${shared}`)
    try {
      await add(`!/ipfs/${shared}`)
      const refused = await requestOnHost(server, mine, `/ipfs/${shared}`)
      expect(refused.status).toBe(410)
      expect(JSON.parse(refused.body).error).toMatch(`the operator's deny list (operator:${operator.line})`)
    } finally {
      await server.service.denylist.removeRule(operator.id)
    }
    expect(await status(mine, `/ipfs/${shared}`)).toBe(200)
  })

  it("every change is in the tenant's audit log, by its actor", async () => {
    const res = await server.api('/v3/audit/events?type=deny_rule.added')
    const events = ((await res.json()) as { data: { events: { type: string; data: { rule: string } }[] } }).data.events
    expect(events.map((e) => e.data.rule)).toContain(`/ipfs/${page}`)
    const theirsLog = await server.api('/v3/audit/events?type=deny_rule.added', { org: OTHER })
    expect(((await theirsLog.json()) as { data: { events: unknown[] } }).data.events).toEqual([])
  })
})
