import { tmpdir } from 'node:os'
import { dirname, resolve } from 'node:path'
import { Readable, type Writable } from 'node:stream'
import type { Network } from '@pinfold/core'
import type { WireFile, WireFileList } from '@pinfold/http'
import type { CID } from 'multiformats/cid'
import type { ApiClient } from './api-client.js'
import { CliError } from './cli-error.js'
import type { Progress } from './progress.js'
import { receiveVerifiedCar } from './verified-car.js'
import { exists, type GetFormat, rootEntry, type Written, writeStream, writeToPath } from './write-verified.js'

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
export async function linkFor(
  api: ApiClient,
  cid: string,
  network: Network,
  expiresSeconds: number,
  query = '',
): Promise<string> {
  if (network === 'public') return `${api.connection.url}/ipfs/${cid}${query}`
  const { data } = await api.json<{ data: string }>('/v3/files/private/download_link', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url: `${api.connection.url}/files/${cid}${query}`, expires: expiresSeconds, method: 'GET' }),
  })
  return data
}

/** Where this tenant holds `cid`, and its record there when it has one. */
export interface Located {
  network: Network
  record?: WireFile | undefined
}

/**
 * Which network holds `cid` for this tenant, the same way for every command: the one asked, else
 * private when a private record holds it, else public (content pinned elsewhere is public too).
 */
export async function locate(api: ApiClient, cid: string, asked: Network | undefined): Promise<Located> {
  for (const network of asked ? [asked] : (['private', 'public'] as const)) {
    const [record] = await filesWithCid(api, network, cid)
    if (record) return { network, record }
  }
  return { network: asked ?? 'public' }
}

export interface VerifiedGetOptions {
  /** A path to write to; undefined: stdout (a file's bytes, or an archive) or, for a folder, `folderOutput`. */
  output: string | undefined
  /** Where a folder goes without an output (`./<cid>`, as `ipfs get` does). */
  folderOutput: string
  format: GetFormat
  force: boolean
  stdout: Writable
  /** The progress of the download, counted in verified block bytes against the record's size. */
  progress(total: number): Progress
  signal: AbortSignal
}

/**
 * `pinfold get`: the content's blocks as a CAR (`?format=car`, through a short-lived signed link
 * when private), each checked against its CID before anything is written, then written as the
 * content itself (a file, or a folder's tree), a TAR or a CAR.
 */
export async function verifiedGet(
  api: ApiClient,
  cid: CID,
  where: Located,
  options: VerifiedGetOptions,
): Promise<Written & { path: string | null }> {
  const { output, force } = options
  if (output !== undefined && !force && (await exists(output))) {
    throw new CliError(`${output} exists: pass --force to replace it`)
  }
  const url = await linkFor(api, cid.toString(), where.network, 300, '?format=car')
  let res: Response
  try {
    res = await fetch(url, { signal: options.signal, headers: { accept: 'application/vnd.ipld.car' } })
  } catch (error) {
    throw new CliError(`cannot reach ${new URL(url).origin}: ${(error as Error).message}`)
  }
  if (!res.ok || !res.body) {
    const shown = where.network === 'public' ? `/ipfs/${cid}` : `/files/${cid}`
    throw new CliError(`GET ${shown}: ${res.status} ${(await res.text()).slice(0, 300)}`)
  }
  const meter = options.progress(where.record?.size ?? 0)
  const body = Readable.fromWeb(res.body as import('node:stream/web').ReadableStream<Uint8Array>)
  const blocks = await receiveVerifiedCar(body, cid, output ? dirname(resolve(output)) : tmpdir(), (n) =>
    meter.advance(n),
  )
  try {
    meter.done()
    const root = await rootEntry(blocks)
    let path = output
    if (path === undefined && options.format === 'content' && root.type === 'directory') {
      path = options.folderOutput
      if (!force && (await exists(path))) throw new CliError(`${path} exists: pass --force to replace it, or -o PATH`)
    }
    if (path !== undefined) return { ...(await writeToPath(blocks, options.format, path, force)), path }
    return { ...(await writeStream(blocks, root, options.format, options.stdout)), path: null }
  } finally {
    await blocks.dispose()
  }
}

/**
 * Deletes records by id, or every record holding a CID when given one. Without a network, each
 * target is looked up as `get` does (private, then public). Answers what it deleted, so a target
 * that matches nothing is reported rather than silently ignored.
 */
export async function removeFiles(
  api: ApiClient,
  targets: readonly string[],
  asked: Network | undefined,
): Promise<{ id: string; network: Network }[]> {
  const removed: { id: string; network: Network }[] = []
  const networks = asked ? [asked] : (['private', 'public'] as const)
  for (const target of targets) {
    let found = false
    for (const network of networks) {
      const ids = looksLikeCid(target) ? (await filesWithCid(api, network, target)).map((f) => f.id) : [target]
      for (const id of ids) {
        const res = await api.request(`/v3/files/${network}/${encodeURIComponent(id)}`, {
          method: 'DELETE',
          allowNotFound: true,
        })
        if (res.status === 404) continue
        removed.push({ id, network })
        found = true
      }
      if (found) break
    }
    if (!found) throw new CliError(`no ${asked ?? 'private or public'} file is ${target} or holds it`)
  }
  return removed
}

/** Record ids are UUIDs; CIDs are `Qm…` (v0) or multibase `b…` (v1, base32), which no UUID is. */
function looksLikeCid(text: string): boolean {
  return /^Qm[1-9A-HJ-NP-Za-km-z]{44}$/.test(text) || /^b[a-z2-7]{20,}$/.test(text)
}
