import { embedderFromEnv } from '@pinfold/embedders'
import {
  errorContractViolation,
  expectContract,
  figures,
  printFigures,
  type Seeds,
  seed,
  snapshot,
  startFakeEmbeddings,
} from '@pinfold/testing/reliability'
import { startTestApi, type TestApi } from '@pinfold/testing/test-api'
import { routesOnlyWebhookTransport } from '@pinfold/testing/webhooks'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { routes } from '../../src/index.js'
import { type Body, body, encodeBody, headers, paramValue, query, tamper } from '../support/reliability-fuzz.js'
import { signatureSpellings } from '../support/token-spellings.js'

/**
 * Property-based fuzzing of every route in the exported table (new routes are covered without
 * touching this file) and of the gateway: random path parameters, queries, headers and bodies,
 * with live ids, fresh tus sessions and genuinely signed URLs mixed in. For every input: no 5xx,
 * every 4xx is `{"error": "…"}`, and a failing request changes nothing (blobs, files, groups).
 */

const RUNS = Number(process.env.PINFOLD_FUZZ_RUNS ?? 40)
const PAY_TO = '0x209693Bc6afc0C5328bA36FaF03C514EF312287C'

let server: TestApi
let embeddings: Awaited<ReturnType<typeof startFakeEmbeddings>>
let seeds: Seeds
let tokens: Record<string, string>
let reseeds = 0
/** PostgreSQL without pgvector answers every vector route 503: a missing capability, not bad input. */
let vectorsUnavailable = false

beforeAll(async () => {
  embeddings = await startFakeEmbeddings()
  server = await startTestApi({
    payTo: PAY_TO,
    webhookTransport: routesOnlyWebhookTransport,
    // the embedder `pinfold serve` builds from PINFOLD_EMBEDDINGS_URL / _MODEL / _DIMENSIONS
    embedder: embedderFromEnv({
      PINFOLD_EMBEDDINGS_URL: embeddings.url,
      PINFOLD_EMBEDDINGS_MODEL: 'fake',
      PINFOLD_EMBEDDINGS_DIMENSIONS: '8',
    }),
  })
  seeds = await seed(server)
  const probe = await server.api(`/v3/vectorize/files/${seeds.privateFile.id}`, { method: 'DELETE' })
  vectorsUnavailable = probe.status === 503 && /pgvector/.test(await probe.text())
  tokens = {
    '@valid': await server.token(),
    '@readonly': await server.token({ scopes: ['org:files:read'] }),
    '@other': await server.token({ org: 'globex' }),
  }
  // the valid token with another spelling of its signature: the same holder, accepted alike
  tokens['@respelled'] = signatureSpellings(tokens['@valid']!).find((spelling) => spelling !== tokens['@valid'])!
})

afterAll(async () => {
  printFigures('fuzz-routes')
  await server?.close()
  await embeddings?.close()
})

interface Resolved {
  path: string
  extraQuery: [string, string][]
}

async function signedUpload(): Promise<URL> {
  // a type list, so signed uploads also meet the check of their sniffed bytes
  const body = JSON.stringify({ expires: 60, allow_mime_types: ['image/png', 'text/plain'] })
  const res = await server.api('/v3/files/sign', { method: 'POST', body })
  return new URL(((await res.json()) as { data: string }).data)
}

async function downloadLink(): Promise<URL> {
  const res = await server.api('/v3/files/private/download_link', {
    method: 'POST',
    body: JSON.stringify({ url: `/files/${seeds.privateFile.cid}`, expires: 60 }),
  })
  return new URL(((await res.json()) as { data: string }).data)
}

async function tusSession(): Promise<{ id: string; token: string }> {
  const res = await server.api('/v3/files', {
    method: 'POST',
    headers: { 'upload-length': '16', 'tus-resumable': '1.0.0', 'upload-metadata': 'network cHJpdmF0ZQ==' },
  })
  const parts = new URL(res.headers.get('location')!).pathname.split('/')
  return { id: parts.at(-2)!, token: parts.at(-1)! }
}

function encodeSegment(value: string): string {
  if (/%|\//.test(value)) return value // traversal and encoding tricks go in raw
  try {
    return encodeURIComponent(value)
  } catch {
    return value // lone surrogates
  }
}

async function resolvePath(pattern: string, values: string[], alt: boolean): Promise<Resolved> {
  const extraQuery: [string, string][] = []
  let tus: { id: string; token: string } | undefined
  let i = 0
  const segments: string[] = []
  for (const segment of pattern.split('/')) {
    if (!segment.startsWith(':')) {
      segments.push(segment)
      continue
    }
    const name = segment.slice(1)
    const value = values[i++ % values.length]!
    let out: string
    switch (value) {
      case '@publicFileId':
        out = seeds.publicFile.id
        break
      case '@privateFileId':
        out = seeds.privateFile.id
        break
      case '@publicCid':
        out = seeds.publicFile.cid
        break
      case '@privateCid':
        out = seeds.privateFile.cid
        break
      case '@groupId':
        out = seeds.groupId
        break
      case '@instructionId':
        out = seeds.instructionId
        break
      case '@domainId':
        out = seeds.domainId
        break
      case '@pinRequestId':
        out = seeds.pinRequestId
        break
      case '@apiKey':
        out = seeds.apiKey
        break
      case '@network':
        out = alt ? 'private' : 'public'
        break
      case '@tus':
        tus ??= await tusSession()
        out = name === 'token' ? tus.token : tus.id
        break
      case '@signedUpload': {
        const url = await signedUpload()
        out = url.pathname.split('/').at(-1)!
        extraQuery.push(...url.searchParams)
        break
      }
      case '@downloadLink': {
        const url = await downloadLink()
        out = url.pathname.split('/').at(-1)!
        extraQuery.push(...url.searchParams)
        break
      }
      default:
        out = value.startsWith('@huge:') ? 'a'.repeat(Number(value.slice(6))) : encodeSegment(value)
    }
    segments.push(out)
  }
  return { path: segments.join('/'), extraQuery }
}

function applyTamper(params: [string, string][], how: string): [string, string][] {
  if (how === 'none' || params.length === 0) return params
  if (how === 'drop') return params.slice(1)
  const target = { signature: 'X-Signature', expires: 'X-Expires', date: 'X-Date', user: 'X-User-ID' }[how]!
  return params.map(([k, v]) => {
    if (k !== target) return [k, v]
    if (how === 'user') return [k, 'globex']
    if (how === 'signature') return [k, `${v.slice(0, -2)}${v.endsWith('AA') ? 'BB' : 'AA'}`]
    return [k, String(Number(v) + 1)]
  })
}

interface Input {
  method: string
  pattern: string
  params: string[]
  alt: boolean
  query: [string, string][]
  tamper: string
  headers: Record<string, string>
  body: Body
}

async function send(input: Input): Promise<{ status: number; problem: string | undefined; url: string }> {
  const { path, extraQuery } = await resolvePath(input.pattern, input.params, input.alt)
  const search = new URLSearchParams([...applyTamper(extraQuery, input.tamper), ...input.query]).toString()
  const url = `${server.url}${path}${search ? `?${search}` : ''}`
  const h = new Headers()
  const { bytes, type } = encodeBody(input.body)
  if (type) h.set('content-type', type)
  for (const [name, value] of Object.entries(input.headers)) {
    if (name === 'authorization') {
      if (value === '@none') continue
      h.set(name, value.startsWith('@') ? `Bearer ${tokens[value]}` : value)
    } else if (name !== 'content-length-hint')
      h.set(name, value.startsWith('@big:') ? 'h'.repeat(Number(value.slice(5))) : value)
  }
  const hasBody = input.method !== 'GET' && input.method !== 'HEAD' && bytes !== undefined
  figures.inputs++
  const res = await server.fetch(url, {
    method: input.method,
    headers: h,
    body: hasBody ? (bytes as RequestInit['body']) : undefined,
    redirect: 'manual',
    signal: AbortSignal.timeout(25_000),
  })
  const withoutVectors = vectorsUnavailable && res.status === 503 && input.pattern.startsWith('/v3/vectorize/')
  const problem = withoutVectors ? void (await res.text()) : await errorContractViolation(res, input.method)
  return { status: res.status, problem, url }
}

async function check(input: Input): Promise<void> {
  const before = await snapshot(server)
  const { status, problem, url } = await send(input)
  expectContract(problem, { ...input, url: url.slice(0, 300) })
  if (status >= 400) {
    expect(await snapshot(server), `a ${status} changed state: ${url.slice(0, 300)}`).toBe(before)
  } else if (input.method === 'DELETE') {
    // a successful delete may have removed a seeded resource: make fresh ones
    seeds = await seed(server, 'acme', `r${++reseeds}`)
  }
}

const inputFor = (method: string, pattern: string) =>
  fc.record({
    method: fc.constant(method),
    pattern: fc.constant(pattern),
    params: fc.array(paramValue, { minLength: 1, maxLength: 3 }),
    alt: fc.boolean(),
    query,
    tamper,
    headers,
    body,
  })

describe('fuzz - every route of the table', () => {
  for (const route of routes) {
    it(`${route.method} ${route.path} - random input never yields a 5xx, a non-JSON 4xx or a partial write`, async () => {
      await fc.assert(fc.asyncProperty(inputFor(route.method, route.path), check), { numRuns: RUNS })
    })
  }

  it('any method on any route - the wrong method is a JSON 405 or 404, never a 5xx', async () => {
    const method = fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD')
    const pattern = fc.constantFrom(...routes.map((r) => r.path))
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          method,
          pattern,
          params: fc.array(paramValue, { minLength: 1, maxLength: 3 }),
          alt: fc.boolean(),
          query,
          tamper,
          headers,
          body,
        }),
        check,
      ),
      { numRuns: RUNS * 2 },
    )
  })
})

describe('fuzz - gateway', () => {
  const segment = fc.oneof(paramValue, fc.constantFrom('index.html', 'a', '', '..', '%2e%2e'))
  it('GET|HEAD|POST /ipfs/{cid}/{path} - random CIDs, paths, formats and ranges never yield a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          method: fc.constantFrom('GET', 'GET', 'HEAD', 'POST', 'DELETE'),
          pattern: fc.constantFrom('/ipfs/:cid', '/ipfs/:cid/:path', '/ipfs/:cid/:path/:more', '/ipfs', '/ipfs/'),
          params: fc.array(segment, { minLength: 1, maxLength: 3 }),
          alt: fc.boolean(),
          query,
          tamper: fc.constant('none'),
          headers,
          body: fc.constant<Body>({ kind: 'none' }),
        }),
        check,
      ),
      { numRuns: RUNS * 3 },
    )
  })

  it('GET /ipfs/{cid} - the seeded public file is still served after the fuzzing', async () => {
    const res = await server.fetch(`${server.url}/ipfs/${seeds.publicFile.cid}`)
    expect(res.status).toBe(200)
    expect(await res.text()).toMatch(/seed/)
  })
})
