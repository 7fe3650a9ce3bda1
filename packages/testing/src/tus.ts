import { computeFileCid } from '@pinfold/core'
import type { ApiTarget } from './test-api.js'

/** A tus metadata value: base64 of the text (UTF-8, or Latin-1 as the SDK's `btoa` sends it). */
export const b64 = (text: string, encoding: BufferEncoding = 'utf8') => Buffer.from(text, encoding).toString('base64')

/** The CID a file upload of `bytes` gets (Kubo's `ipfs add`, raw leaves for v1). */
export const cidOf = async (bytes: Uint8Array, version: 'v0' | 'v1' = 'v1') =>
  (
    await computeFileCid(
      (async function* () {
        yield bytes
      })(),
      version,
    )
  ).toString()

export interface FileItem {
  id: string
  cid: string
  name: string
  size: number
  mime_type: string
  keyvalues: Record<string, string>
}

/** A tus creation request shaped exactly as the official SDK sends it: no Tus-Resumable, no body. */
export async function createSdkStyle(
  server: ApiTarget,
  length: number,
  metadata: string,
  query = '',
  token?: string,
): Promise<Response> {
  const headers: Record<string, string> = {
    'Upload-Length': String(length),
    'Upload-Metadata': metadata,
    Source: 'sdk/file',
    Authorization: `Bearer ${token ?? (await server.token())}`,
  }
  return server.fetch(`${server.url}/v3/files${query}`, { method: 'POST', headers })
}

/** A tus PATCH of `bytes` at `offset` to an upload's Location. */
export const patchAt = (server: ApiTarget, location: string, offset: number, bytes: Uint8Array) =>
  server.fetch(location, {
    method: 'PATCH',
    headers: { 'Content-Type': 'application/offset+octet-stream', 'Upload-Offset': String(offset) },
    body: bytes,
  })

/** The first file of tenant "acme" with this CID. */
export async function findByCid(server: ApiTarget, cid: string, network = 'public'): Promise<FileItem> {
  const res = await server.api(`/v3/files/${network}?cid=${cid}`)
  return ((await res.json()) as { data: { files: FileItem[] } }).data.files[0]!
}
