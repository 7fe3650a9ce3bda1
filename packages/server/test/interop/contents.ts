import { createHash } from 'node:crypto'
import { chacha } from '@pinfold/testing/gateway'
import { type ApiTarget, upload } from '@pinfold/testing/test-api'
import { folderForm } from '@pinfold/testing/uploads'

export const sha256Hex = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex')

/** What a client must have read: the same bytes, proven by their length and SHA-256. */
export interface Digest {
  sha256: string
  size: number
}
const digestOf = (bytes: Uint8Array | string): Digest => ({ sha256: sha256Hex(bytes), size: Buffer.byteLength(bytes) })

/**
 * What every client reads: one content per DAG shape the gateway must serve block by block.
 * 5 MiB = 20 leaves of 256 KiB under one root; the folder holds a single-block file, a two-leaf file in
 * a subdirectory and a four-leaf file.
 */
const SMALL = 'hello interop\n'
const BIG = chacha('interop-5mib', 5 * 1024 * 1024)
export const FOLDER = {
  'a.txt': 'hello',
  'sub/mid.bin': chacha('interop-mid', 300_000),
  'big.bin': chacha('interop-big', 1_000_000),
} as const

export interface Uploaded {
  cid: string
  digest: Digest
}

export interface InteropContents {
  /** Single block: the raw leaf is the root (CIDv1) or a dag-pb File node (CIDv0). */
  small: { v1: Uploaded; v0: Uploaded }
  /** 5 MiB under CIDv1 (raw leaves) and CIDv0 (dag-pb leaves). */
  big: { v1: Uploaded; v0: Uploaded }
  folder: { cid: string; files: Record<keyof typeof FOLDER, Digest> }
}

/** Uploads every content through `POST /v3/files`, as an SDK would, and returns CIDs with the expected digests. */
export async function uploadContents(server: Pick<ApiTarget, 'api'>): Promise<InteropContents> {
  const put = async (bytes: Uint8Array | string, cidVersion: 'v1' | 'v0'): Promise<Uploaded> => {
    const res = await upload(server, { bytes }, { network: 'public', cid_version: cidVersion })
    if (res.status !== 200) throw new Error(`upload failed: ${res.status} ${res.body.error}`)
    return { cid: res.body.data.cid as string, digest: digestOf(bytes) }
  }
  const files = Object.entries(FOLDER).map(([path, bytes]) => ({ path: `interop/${path}`, bytes }))
  const res = await server.api('/v3/files', { method: 'POST', body: folderForm(files, { network: 'public' }) })
  const folder = (await res.json()) as { data: { cid: string }; error?: string }
  if (res.status !== 200) throw new Error(`folder upload failed: ${res.status} ${folder.error}`)
  return {
    small: { v1: await put(SMALL, 'v1'), v0: await put(SMALL, 'v0') },
    big: { v1: await put(BIG, 'v1'), v0: await put(BIG, 'v0') },
    folder: {
      cid: folder.data.cid,
      files: Object.fromEntries(Object.entries(FOLDER).map(([path, bytes]) => [path, digestOf(bytes)])) as Record<
        keyof typeof FOLDER,
        Digest
      >,
    },
  }
}
