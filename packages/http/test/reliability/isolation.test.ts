import { mintOperatorToken, mintToken, OPERATOR_SCOPE, SCOPES } from '@pinfold/core'
import { type Seeds, seed, snapshot } from '@pinfold/testing/reliability'
import { startTestApi, TEST_SECRET, type TestApi, upload } from '@pinfold/testing/test-api'
import { routesOnlyWebhookTransport } from '@pinfold/testing/webhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Route } from '../../src/index.js'
import { routes } from '../../src/index.js'

/**
 * Tenant isolation, generated from the route table: for every authenticated route with a
 * parameter, tenant B ("globex") sending tenant A's ("acme") ids gets a 404 — or, where the route
 * refuses the request before looking anything up, exactly the answer A gets — never a 2xx, and
 * no answer to B ever contains one of A's identifiers. A's data is unchanged afterwards.
 */

const PAY_TO = '0x209693Bc6afc0C5328bA36FaF03C514EF312287C'

let server: TestApi
let a: Seeds
let b: Seeds
let tokenA: string
let tokenB: string

beforeAll(async () => {
  server = await startTestApi({ payTo: PAY_TO, webhookTransport: routesOnlyWebhookTransport })
  a = await seed(server, 'acme')
  b = await seed(server, 'globex')
  tokenA = await server.token({ org: 'acme' })
  tokenB = await server.token({ org: 'globex' })
  // a swap of A's, so the swap routes look up something that exists
  const target = await upload(server, { bytes: 'acme swap target' }, { network: 'public' }, tokenA)
  const swap = await server.api(`/v3/files/public/swap/${a.publicFile.cid}`, {
    method: 'PUT',
    body: JSON.stringify({ swap_cid: target.body.data.cid }),
    auth: tokenA,
  })
  expect(swap.status, await swap.text()).toBe(200)
})
afterAll(() => server?.close())

const NO_ID = '01a20000-0000-7000-8000-000000000000'
const NO_CID = 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy'
/** Ids and CIDs nobody holds. */
const MISSING: Seeds = {
  publicFile: { id: NO_ID, cid: NO_CID },
  privateFile: { id: NO_ID, cid: NO_CID },
  groupId: NO_ID,
  instructionId: NO_ID,
  domainId: NO_ID,
  pinRequestId: NO_ID,
  apiKey: 'f00dfacef00dfacef00d',
  webhookId: NO_ID,
}

/** A's identifiers that must never appear in an answer to B. */
const secretsOf = (s: Seeds) => [
  s.publicFile.id,
  s.privateFile.id,
  s.privateFile.cid,
  s.groupId,
  s.instructionId,
  s.domainId,
  s.pinRequestId,
  s.apiKey,
  s.webhookId!,
]

/** The path with A's resource for each parameter, chosen by the route's family. */
function pathFor(route: Route, s: Seeds, network: 'public' | 'private'): string {
  // `/v3/<family>/…`; Pinata's legacy and the Pinning Service API's paths have no `/v3`
  const family = route.path.split('/')[route.path.startsWith('/v3/') ? 2 : 1] ?? ''
  // the legacy `/v3/ipfs/…` routes (swaps, signatures) act on public files only
  const file = network === 'private' && family !== 'ipfs' ? s.privateFile : s.publicFile
  return route.path.replace(/:(\w+)/g, (_, name: string) => {
    switch (name) {
      case 'network':
        return family === 'groups' ? 'public' : network
      case 'id':
        if (family === 'groups') return s.groupId
        if (family === 'gateways') return s.domainId
        if (family === 'x402') return s.instructionId
        if (family === 'webhooks') return s.webhookId!
        if (route.path.includes('/pin_by_cid/')) return s.pinRequestId
        return file.id
      case 'fileId':
        // groups live on the public network here, and only hold files of their network
        return family === 'groups' ? s.publicFile.id : file.id
      case 'groupId':
        return s.groupId
      case 'key':
        return s.apiKey
      case 'requestid':
        // the Pinning Service API's requests are the pin-by-CID queue's
        return s.pinRequestId
      case 'cid':
        return file.cid
      default:
        throw new Error(`isolation matrix: no resource for :${name} in ${route.path}; extend pathFor`)
    }
  })
}

/** A body that gets past validation where the route reads one. */
function bodyFor(route: Route, s: Seeds): string | undefined {
  if (route.method === 'GET' || route.method === 'HEAD') return undefined
  if (route.method === 'DELETE' && !route.request.body) return undefined
  return JSON.stringify({
    cids: [s.publicFile.cid],
    name: 'renamed',
    is_public: false,
    keyvalues: { k: 'v' },
    swap_cid: s.publicFile.cid,
    text: 'query',
    url: '/files/whatever',
    expires: 60,
  })
}

const checked: { route: string; realForA: boolean }[] = []
// the admin API (auth `operator`) has its own section below: no tenant reaches any of it
const tenantRoutes = routes.filter((r) => r.auth !== 'public' && r.auth !== 'operator')
const scoped = tenantRoutes.filter((r) => r.path.includes('/:') && !/:network$/.test(r.path))

describe('isolation matrix - another tenant’s ids', () => {
  for (const route of scoped) {
    for (const network of ['private', 'public'] as const) {
      if (network === 'public' && !route.path.includes(':network')) continue
      it(`${route.method} ${route.path} (${network}) - tenant B gets 404 for tenant A's ids and learns nothing`, async () => {
        const path = pathFor(route, a, network)
        const before = await snapshot(server, ['acme', 'globex'])
        const asB = await server.api(path, { method: route.method, body: bodyFor(route, a), auth: tokenB })
        const textB = await asB.text()
        expect(asB.status, `${route.method} ${path} as B: ${textB}`).toBeGreaterThanOrEqual(400)
        for (const secret of secretsOf(a)) expect(textB).not.toContain(secret)
        // B's answer for A's ids is exactly its answer for ids that exist nowhere
        const none = await server.api(pathFor(route, MISSING, network), {
          method: route.method,
          body: bodyFor(route, a),
          auth: tokenB,
        })
        const textNone = await none.text()
        expect(asB.status, textB).toBe(none.status)
        expect(textB.replaceAll(a.privateFile.cid, '').replaceAll(a.publicFile.cid, '')).toBe(
          textNone.replaceAll(MISSING.privateFile.cid, '').replaceAll(MISSING.publicFile.cid, ''),
        )
        if (route.method === 'DELETE') {
          expect(asB.status, textB).toBe(404)
        } else {
          // the same request by A proves the ids are real: B's 404 is isolation, not a typo
          const asA = await server.api(path, { method: route.method, body: bodyFor(route, a), auth: tokenA })
          await asA.arrayBuffer()
          checked.push({ route: `${route.method} ${path}`, realForA: asA.status !== 404 })
          if (asA.status < 300) expect(asB.status, textB).toBe(404)
          else expect([404, asA.status]).toContain(asB.status)
        }
        if (route.method === 'DELETE') expect(await snapshot(server, ['acme', 'globex'])).toBe(before)
      })
    }
  }

  it('matrix - the ids are real: A reaches its own resource on nearly every route B is refused', () => {
    const missed = checked.filter((c) => !c.realForA).map((c) => c.route)
    // only sub-resources A never made may be missing: a signature (three routes read one: v3 on
    // either network, and the legacy one) and a swap on the private network (PUT and GET)
    expect(missed.length, missed.join('\n')).toBeLessThanOrEqual(5)
    expect(checked.length).toBeGreaterThan(20)
  })

  it('PUT /v3/groups/{network}/{id}/ids/{fileId} - B cannot add A’s file to its own group', async () => {
    const res = await server.api(`/v3/groups/public/${b.groupId}/ids/${a.publicFile.id}`, {
      method: 'PUT',
      auth: tokenB,
    })
    expect(res.status).toBe(404)
  })
})

describe('isolation matrix - lists never leak', () => {
  const lists = tenantRoutes.filter((r) => r.method === 'GET' && !/\/:(id|cid|fileId)/.test(r.path))
  for (const route of lists) {
    it(`${route.path} - B's list, with A's ids as filters, holds none of A's items`, async () => {
      const filters = ['', `?cid=${a.privateFile.cid}`, `?cid=${a.publicFile.cid}`, `?id=${a.instructionId}`, '?name=']
      for (const network of ['public', 'private']) {
        for (const filter of filters) {
          const path = route.path.replace(':network', network) + filter
          const res = await server.api(path, { auth: tokenB })
          const text = await res.text()
          expect(res.status, `${path}: ${text}`).toBeLessThan(500)
          for (const secret of secretsOf(a)) expect(text, path).not.toContain(secret)
        }
      }
    })
  }
})

describe('isolation matrix - gateway and public routes', () => {
  it('GET /ipfs/{cid} - private content is never served on the public gateway, in any format', async () => {
    for (const query of ['', '?format=raw', '?format=car', '?filename=x.txt&download=true']) {
      const res = await server.fetch(`${server.url}/ipfs/${a.privateFile.cid}${query}`)
      expect(res.status, query).toBe(404)
      expect(await res.text()).not.toContain('seed')
    }
  })

  it('GET /v1/retrieve/private/{cid} - without a payment nothing about the file leaks', async () => {
    const res = await server.fetch(`${server.url}/v1/retrieve/private/${a.privateFile.cid}`)
    expect(res.status).toBe(402)
    const text = await res.text()
    for (const secret of [a.privateFile.id, a.groupId]) expect(text).not.toContain(secret)
  })

  it("GET /files/{cid} - a download link re-targeted at another tenant's user id is refused", async () => {
    const res = await server.api('/v3/files/private/download_link', {
      method: 'POST',
      body: JSON.stringify({ url: `/files/${a.privateFile.cid}`, expires: 60 }),
      auth: tokenA,
    })
    const link = new URL(((await res.json()) as { data: string }).data)
    link.searchParams.set('X-User-ID', 'globex')
    const forged = await server.fetch(`${server.url}${link.pathname}${link.search}`)
    expect(forged.status).toBe(403)
    expect(Object.keys((await forged.json()) as object)).toEqual(['error'])
  })
})

describe('isolation matrix - the admin API is invisible to tenants', () => {
  const adminRoutes = routes.filter((r) => r.auth === 'operator')
  /** Every credential a tenant can hold or make, none of them an operator's. */
  async function tenantCredentials(): Promise<Record<string, string | null>> {
    const key = await server.api('/v3/pinata/keys', {
      method: 'POST',
      body: JSON.stringify({ keyName: 'everything', permissions: { admin: true } }),
      auth: tokenA,
    })
    const claiming = (org: string) =>
      mintToken(TEST_SECRET, { sub: 'mallory', org, scopes: [...SCOPES, OPERATOR_SCOPE], expiresIn: '1h' })
    return {
      none: null,
      'tenant token, every scope': tokenA,
      'tenant token claiming the operator scope': await claiming('acme'),
      'tenant token of an org named like an operator': await claiming('operator'),
      'API key with every scope': ((await key.json()) as { JWT: string }).JWT,
      'operator token of another deployment': await mintOperatorToken('x'.repeat(40), { sub: 'ops', expiresIn: 60 }),
    }
  }
  const pathOf = (path: string) => path.replace(':tenantId', 'acme')

  it('every admin route, any method - a tenant gets the 404 of a path that does not exist; an operator does not', async () => {
    expect(adminRoutes.length).toBeGreaterThan(5)
    const credentials = await tenantCredentials()
    const operator = await mintOperatorToken(TEST_SECRET, { sub: 'ops', expiresIn: 60 })
    const before = await snapshot(server, ['acme', 'globex'])
    for (const route of adminRoutes) {
      // the route's own method, and one no admin route of this path has (a 405 would tell the path exists)
      const declared = adminRoutes.filter((other) => other.path === route.path).map((other) => other.method)
      const undeclared = (['PUT', 'DELETE', 'PATCH', 'POST', 'GET'] as const).find((m) => !declared.includes(m))!
      for (const method of [route.method, undeclared]) {
        const path = pathOf(route.path)
        const body = method === 'GET' ? undefined : JSON.stringify({ id: 'x', reason: 'x', hide_content: true })
        for (const [who, auth] of Object.entries(credentials)) {
          const res = await server.api(path, { method, body, auth })
          expect(res.status, `${method} ${path} as ${who}`).toBe(404)
          expect(await res.json(), `${method} ${path} as ${who}`).toEqual({
            error: `${method} ${path} is not supported by Pinfold`,
          })
        }
        if (method === route.method) continue
        const asOperator = await server.api(path, { method, body, auth: operator })
        expect(asOperator.status, `${method} ${path} as the operator`).toBe(405)
      }
    }
    // nothing a tenant sent changed anything (suspensions, keys, tenants)
    expect(await snapshot(server, ['acme', 'globex'])).toBe(before)
    const tenants = await server.api('/admin/v1/tenants', { auth: operator })
    const listed = (await tenants.json()) as { data: { tenants: { id: string; suspension: unknown }[] } }
    expect(listed.data.tenants.map((t) => t.id)).not.toContain('x')
    expect(listed.data.tenants.every((t) => t.suspension === null)).toBe(true)
    const keyStillWorks = await server.api('/v3/files/public', { auth: credentials['API key with every scope']! })
    expect(keyStillWorks.status).toBe(200)
  })
})
