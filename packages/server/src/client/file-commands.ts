import { createWriteStream } from 'node:fs'
import { Readable, type Writable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { Network } from '@pinfold/core'
import type { WireFile, WireFileList } from '@pinfold/http'
import type { ApiClient } from './api-client.js'
import { CliError } from './cli-error.js'
import type { Progress } from './progress.js'

export interface ListFilter {
  name?: string | undefined
  cid?: string | undefined
  group?: string | undefined
  mimeType?: string | undefined
  keyvalues?: Record<string, string> | undefined
  limit?: number | undefined
  pageToken?: string | undefined
}

/** One page of `GET /v3/files/{network}` with the filters the API documents. */
export async function listFiles(
  api: ApiClient,
  network: Network,
  filter: ListFilter,
): Promise<{ files: WireFile[]; nextPageToken: string }> {
  const query = new URLSearchParams()
  if (filter.name) query.set('name', filter.name)
  if (filter.cid) query.set('cid', filter.cid)
  if (filter.group) query.set('group', filter.group)
  if (filter.mimeType) query.set('mimeType', filter.mimeType)
  for (const [key, value] of Object.entries(filter.keyvalues ?? {})) query.set(`keyvalues[${key}]`, value)
  if (filter.limit !== undefined) query.set('limit', String(filter.limit))
  if (filter.pageToken) query.set('pageToken', filter.pageToken)
  const { data } = await api.json<{ data: WireFileList }>(`/v3/files/${network}?${query}`)
  return { files: data.files, nextPageToken: data.next_page_token }
}

/** The records holding `cid` on `network` (the same content uploaded twice has two). */
async function filesWithCid(api: ApiClient, network: Network, cid: string): Promise<WireFile[]> {
  return (await listFiles(api, network, { cid, limit: 1000 })).files
}

/** A URL that serves `cid`: the public gateway, or a signed private link living `expiresSeconds`. */
export async function linkFor(api: ApiClient, cid: string, network: Network, expiresSeconds: number): Promise<string> {
  if (network === 'public') return `${api.connection.url}/ipfs/${cid}`
  const { data } = await api.json<{ data: string }>('/v3/files/private/download_link', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url: `${api.connection.url}/files/${cid}`, expires: expiresSeconds, method: 'GET' }),
  })
  return data
}

/** Which network holds `cid` for this tenant: private first (a public CID needs no lookup to serve). */
export async function networkOf(api: ApiClient, cid: string, asked: Network | undefined): Promise<Network> {
  if (asked) return asked
  return (await filesWithCid(api, 'private', cid)).length > 0 ? 'private' : 'public'
}

/**
 * Streams the content of `cid` to `out` (a path, or stdout when absent), through a short-lived
 * private link when the CID is private.
 */
export async function download(
  api: ApiClient,
  cid: string,
  network: Network,
  out: Writable,
  progress: (total: number) => Progress,
  signal: AbortSignal,
): Promise<number> {
  const url = await linkFor(api, cid, network, 300)
  let res: Response
  try {
    res = await fetch(url, { signal })
  } catch (error) {
    throw new CliError(`cannot reach ${new URL(url).origin}: ${(error as Error).message}`)
  }
  if (!res.ok || !res.body) {
    throw new CliError(
      `GET ${network === 'public' ? `/ipfs/${cid}` : `/files/${cid}`}: ${res.status} ${await res.text()}`,
    )
  }
  const total = Number(res.headers.get('content-length') ?? 0)
  const meter = progress(total)
  let received = 0
  await pipeline(
    Readable.fromWeb(res.body as import('node:stream/web').ReadableStream<Uint8Array>),
    async function* count(source: AsyncIterable<Uint8Array>) {
      for await (const chunk of source) {
        received += chunk.byteLength
        meter.advance(chunk.byteLength)
        yield chunk
      }
    },
    out,
    { signal },
  )
  meter.done()
  return received
}

export const fileSink = (path: string): Writable => createWriteStream(path, { flags: 'wx' })

/**
 * Deletes records by id, or every record holding a CID when given one. Answers what it deleted,
 * so a CID that matches nothing is reported rather than silently ignored.
 */
export async function removeFiles(api: ApiClient, targets: readonly string[], network: Network): Promise<string[]> {
  const removed: string[] = []
  for (const target of targets) {
    const ids = looksLikeCid(target) ? (await filesWithCid(api, network, target)).map((f) => f.id) : [target]
    if (ids.length === 0) throw new CliError(`no ${network} file holds ${target}`)
    for (const id of ids) {
      await api.request(`/v3/files/${network}/${encodeURIComponent(id)}`, { method: 'DELETE' })
      removed.push(id)
    }
  }
  return removed
}

/** Record ids are UUIDs; CIDs are `Qm…` (v0) or multibase `b…` (v1, base32), which no UUID is. */
function looksLikeCid(text: string): boolean {
  return /^Qm[1-9A-HJ-NP-Za-km-z]{44}$/.test(text) || /^b[a-z2-7]{20,}$/.test(text)
}
