import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type Network, SCOPES, type TokenActor } from '@pinfold/core'
import { expect } from 'vitest'
import { type ApiTarget, form } from './test-api.js'

/** The acting tenant of the fuzz and fault tests, for reading the stores directly. */
export const actorOf = (tenantId = 'acme'): TokenActor => ({ tenantId, userId: 'alice', scopes: new Set(SCOPES) })

/** Counters the reliability tests print at the end (the issue asks for these figures). */
export const figures = {
  inputs: 0,
  fiveHundreds: 0,
  faultsInjected: 0,
  faultsSurvived: 0,
  filesLost: 0,
  statuses: {} as Record<number, number>,
}

export function printFigures(label: string): void {
  console.log(
    `[reliability] ${label}: inputs tried ${figures.inputs}, 5xx seen ${figures.fiveHundreds}, ` +
      `faults injected ${figures.faultsInjected}, survived ${figures.faultsSurvived}, files lost ${figures.filesLost}; ` +
      `statuses ${JSON.stringify(figures.statuses)}`,
  )
}

/** The Pinning Service API's `Failure` (its routes' own error shape): `{"error": {"reason", "details"}}`, both strings. */
function isPinningServiceFailure(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false
  const { reason, details, ...rest } = error as { reason?: unknown; details?: unknown }
  return (
    typeof reason === 'string' &&
    /^[A-Z_]+$/.test(reason) &&
    typeof details === 'string' &&
    details !== '' &&
    Object.keys(rest).length === 0
  )
}

/**
 * Why a response breaks the error contract, or `undefined` when it keeps it: no 5xx; every 4xx
 * (but 402, whose x402 body carries `accepts`) is JSON with exactly one string field `error` (on the
 * Pinning Service API's routes, the spec's `Failure` object instead), or,
 * for a browser that asked the gateway for HTML, the gateway's error page saying the same.
 */
export async function errorContractViolation(res: Response, method: string): Promise<string | undefined> {
  const text = await res.text()
  figures.statuses[res.status] = (figures.statuses[res.status] ?? 0) + 1
  if (res.status >= 500) return `status ${res.status}: ${text.slice(0, 300)}`
  if (res.status < 400 || method === 'HEAD') return undefined
  if (res.headers.get('content-type') === 'text/html; charset=utf-8') {
    return new RegExp(`<h1>${res.status} error</h1><p>[^<]+</p>`).test(text)
      ? undefined
      : `status ${res.status}: not the gateway's error page: ${JSON.stringify(text.slice(0, 200))}`
  }
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return `status ${res.status} with a non-JSON body: ${JSON.stringify(text.slice(0, 200))}`
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return `status ${res.status}: body ${text}`
  const keys = Object.keys(body)
  const error = (body as { error?: unknown }).error
  if (isPinningServiceFailure(error))
    return keys.length === 1 ? undefined : `status ${res.status}: extra fields in ${text}`
  if (typeof error !== 'string' || error === '') return `status ${res.status}: no string error in ${text}`
  if (res.status !== 402 && keys.length !== 1) return `status ${res.status}: extra fields in ${text}`
  return undefined
}

/** What a failing request must not change: blobs held, and the files and groups of a tenant. */
export async function snapshot(server: ApiTarget, tenants: readonly string[] = ['acme']): Promise<string> {
  const service = server.service
  const parts: string[] = [`blobs=${server.blobCount()}`]
  for (const tenant of tenants) {
    for (const network of ['public', 'private'] as Network[]) {
      const files = await service.files.list(actorOf(tenant), network, { limit: 1000 })
      const groups = await service.groups.list(actorOf(tenant), network, { limit: 1000 })
      parts.push(
        `${tenant}/${network}: files=${files.files
          .map((f) => f.id)
          .sort()
          .join(',')} groups=${groups.groups.length}`,
      )
    }
    const pins = await service.pins.list(actorOf(tenant), { limit: 1000 })
    parts.push(`${tenant} pins=${pins.requests.map((r) => `${r.id}:${r.state}`).join(',')}`)
  }
  return parts.join(' | ')
}

/** An OpenAI-compatible `/embeddings` endpoint answering small deterministic vectors, instantly. */
export async function startFakeEmbeddings(dimensions = 8): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    let raw = ''
    req.on('data', (chunk: Buffer) => {
      raw += chunk.toString()
    })
    req.on('end', () => {
      let input: string[] = []
      try {
        const parsed = JSON.parse(raw) as { input?: unknown }
        input = Array.isArray(parsed.input) ? (parsed.input as string[]) : [String(parsed.input)]
      } catch {}
      const data = input.map((text, index) => ({
        index,
        embedding: Array.from({ length: dimensions }, (_, i) => ((String(text).charCodeAt(i) || 1) % 7) + 1),
      }))
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ object: 'list', data }))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

export interface Seeds {
  publicFile: { id: string; cid: string }
  privateFile: { id: string; cid: string }
  groupId: string
  instructionId: string
  domainId: string
  /** A pin-by-CID request still queued (nothing runs jobs in these tests). */
  pinRequestId: string
  /** The public key (`pinata_api_key`) of an API key: what `PUT /v3/pinata/keys/:key` revokes. */
  apiKey: string
  /** A webhook endpoint, where the server was given a webhook transport (else webhooks answer 503). */
  webhookId: string | undefined
}

/** Uploads and creates one of each resource for `org`, so fuzzed requests can hit real ids. */
export async function seed(server: ApiTarget, org = 'acme', salt = ''): Promise<Seeds> {
  const auth = await server.token({ org })
  const call = async (path: string, init: RequestInit) => {
    const res = await server.api(path, { ...init, auth })
    const body = (await res.json()) as { data: Record<string, unknown> }
    if (res.status >= 300) throw new Error(`seed ${path}: ${res.status} ${JSON.stringify(body)}`)
    return body.data
  }
  const uploadOne = async (network: Network) => {
    const d = await call('/v3/files', {
      method: 'POST',
      body: form({ network, name: `${network}.txt` }, { bytes: `${org} ${network} seed ${salt}`, name: 'seed.txt' }),
    })
    return { id: d.id as string, cid: d.cid as string }
  }
  const publicFile = await uploadOne('public')
  const privateFile = await uploadOne('private')
  const group = await call('/v3/groups/public', { method: 'POST', body: JSON.stringify({ name: `g-${org}` }) })
  const instruction = await call('/v3/x402/payment_instructions', {
    method: 'POST',
    body: JSON.stringify({
      name: `pay-${org}`,
      payment_requirements: [
        {
          asset: '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
          network: 'base-sepolia',
          amount: '100',
          pay_to: '0x209693Bc6afc0C5328bA36FaF03C514EF312287C',
        },
      ],
    }),
  })
  await call(`/v3/x402/payment_instructions/${instruction.id}/cids/${privateFile.cid}`, { method: 'PUT' })
  const domain = await call('/v3/gateways/domains', {
    method: 'POST',
    body: JSON.stringify({ domain: `${org}${salt}.example.com` }),
  })
  const pin = await call('/v3/files/public/pin_by_cid', {
    method: 'POST',
    body: JSON.stringify({ cid: publicFile.cid, name: `pin-${org}` }),
  })
  // the keys API answers unwrapped, as Pinata's does
  const keyRes = await server.api('/v3/pinata/keys', {
    method: 'POST',
    auth,
    body: JSON.stringify({ keyName: `key-${org}`, permissions: { admin: true } }),
  })
  if (keyRes.status !== 200) throw new Error(`seed /v3/pinata/keys: ${keyRes.status} ${await keyRes.text()}`)
  const apiKey = ((await keyRes.json()) as { pinata_api_key: string }).pinata_api_key
  const hookRes = await server.api('/v3/webhooks', {
    method: 'POST',
    auth,
    body: JSON.stringify({ url: `https://hooks.example/${org}`, event_types: ['file.created'] }),
  })
  const hook = hookRes.status === 503 ? undefined : ((await hookRes.json()) as { data?: { id?: string } }).data
  if (hookRes.status !== 503 && !hook?.id) throw new Error(`seed /v3/webhooks: ${hookRes.status}`)
  return {
    webhookId: hook?.id,
    publicFile,
    privateFile,
    apiKey,
    groupId: group.id as string,
    instructionId: instruction.id as string,
    domainId: domain.id as string,
    pinRequestId: pin.id as string,
  }
}

/** Fails the test with the input that broke the contract. */
export function expectContract(problem: string | undefined, input: unknown): void {
  if (problem) figures.fiveHundreds += problem.startsWith('status 5') ? 1 : 0
  expect(problem, `${problem}\ninput: ${JSON.stringify(input, null, 1)?.slice(0, 2000)}`).toBeUndefined()
}
