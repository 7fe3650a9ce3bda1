import type { Embedder, TextExtractor } from '@pinfold/core'
import type { ExtractionPoolOptions } from '@pinfold/text-extract'
import { type ApiTarget, form, startTestApi, type TestApi } from './test-api.js'

/**
 * The in-process API on the storage `PINFOLD_TEST_STORAGE` names (so CI runs these against
 * PostgreSQL with pgvector too) with the embedder the test chooses: a small, fast one rather than
 * the 300 MB default. `embedder: null` (or none) builds a service with no embedder at all. Text
 * is extracted on worker threads, as the server does, unless `textExtractor` replaces that;
 * `extraction` sets the workers' limits.
 */
export function startVectorApi(
  options: { embedder?: Embedder | null; textExtractor?: TextExtractor; extraction?: ExtractionPoolOptions } = {},
): Promise<TestApi> {
  return startTestApi({ ...options, embedder: options.embedder ?? null })
}

/** Creates a private group and uploads text files into it; returns their ids and CIDs. */
export async function privateGroupWithTexts(
  server: ApiTarget,
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
  server: ApiTarget,
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
  server: ApiTarget,
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
