import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createMemoryBlobStore, createMemoryRecordStore } from '@pinfold/adapter-memory'
import {
  createFileService,
  createTokenVerifier,
  type Embedder,
  type FileService,
  mintToken,
  SCOPES,
  type TextExtractor,
} from '@pinfold/core'
import { createFetchHandler } from '@pinfold/http'
import { createNodeHandler } from '@pinfold/http-node'
import { createExtractionPool, type ExtractionPoolOptions } from '@pinfold/text-extract'
import { type ApiClient, apiClient, form, TEST_SECRET } from './server.js'

export interface VectorTestServer {
  url: string
  service: FileService
  token(options?: { sub?: string; org?: string; scopes?: readonly string[] }): Promise<string>
  /** fetch with a bearer token of tenant "acme" unless `auth` is given (`null`: none). */
  api: ApiClient
  close(): Promise<void>
}

/**
 * A server like `startTestServer`'s (memory stores, the test secret) whose service is built here so
 * the tests choose the embedder: a small, fast one rather than the 300 MB default. `embedder: null`
 * builds a service with no embedder at all. Text is extracted on worker threads, as the server does,
 * unless `textExtractor` replaces that; `extraction` sets the workers' limits.
 */
export async function startVectorServer(
  options: { embedder?: Embedder | null; textExtractor?: TextExtractor; extraction?: ExtractionPoolOptions } = {},
): Promise<VectorTestServer> {
  const extraction = createExtractionPool(options.extraction)
  const service = createFileService({
    records: createMemoryRecordStore(),
    blobs: createMemoryBlobStore(),
    signingSecret: TEST_SECRET,
    embedder: options.embedder ?? undefined,
    textExtractor: options.textExtractor ?? extraction.extract,
  })
  const handler = createFetchHandler(service, { auth: createTokenVerifier({ secret: TEST_SECRET }) })
  const server = createServer(createNodeHandler(handler))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const token: VectorTestServer['token'] = (t = {}) =>
    mintToken(TEST_SECRET, { sub: t.sub ?? 'alice', org: t.org ?? 'acme', scopes: t.scopes ?? SCOPES, expiresIn: '1h' })
  const defaultToken = await token()
  return {
    url,
    service,
    token,
    api: apiClient(url, defaultToken),
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeIdleConnections()
      })
      await extraction.close()
    },
  }
}

/** Creates a private group and uploads text files into it; returns their ids and CIDs. */
export async function privateGroupWithTexts(
  server: VectorTestServer,
  texts: readonly string[],
  auth?: string,
): Promise<{ groupId: string; files: { id: string; cid: string }[] }> {
  const res = await server.api('/v3/groups/private', { method: 'POST', body: JSON.stringify({ name: 'docs' }), auth })
  const groupId = ((await res.json()) as { data: { id: string } }).data.id
  const files: { id: string; cid: string }[] = []
  for (const [i, text] of texts.entries()) {
    files.push(await uploadText(server, text, { group_id: groupId, name: `doc-${i}.txt` }, auth))
  }
  return { groupId, files }
}

export async function uploadText(
  server: VectorTestServer,
  text: string,
  fields: Record<string, string> = {},
  auth?: string,
): Promise<{ id: string; cid: string }> {
  const body = form(
    { network: 'private', ...fields },
    { bytes: text, name: fields.name ?? 'doc.txt', type: 'text/plain' },
  )
  const res = await server.api('/v3/files', { method: 'POST', body, auth })
  const json = (await res.json()) as { data: { id: string; cid: string } }
  if (res.status !== 200) throw new Error(`upload failed: ${res.status} ${JSON.stringify(json)}`)
  return { id: json.data.id, cid: json.data.cid }
}

export interface QueryBody {
  data: { count: number; matches: { file_id: string; cid: string; score: number }[] }
  error?: string
}

/** POSTs a query the way the SDK does: a JSON body with no Content-Type. */
export async function queryGroup(
  server: VectorTestServer,
  groupId: string,
  body: Record<string, unknown>,
  auth?: string,
): Promise<{ status: number; body: QueryBody }> {
  const res = await server.api(`/v3/vectorize/groups/${groupId}/query`, {
    method: 'POST',
    body: new TextEncoder().encode(JSON.stringify(body)),
    auth,
  })
  return { status: res.status, body: (await res.json()) as QueryBody }
}
