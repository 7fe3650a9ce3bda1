import { createCipheriv, createHash } from 'node:crypto'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { CarBlockIterator } from '@ipld/car/iterator'
import { createMemoryBlobStore, createMemoryRecordStore } from '@pinfold/adapter-memory'
import {
  type BlobStore,
  type Clock,
  createFileService,
  createTokenVerifier,
  type FileService,
  type FileServiceOptions,
  mintToken,
  SCOPES,
} from '@pinfold/core'
import { createFetchHandler } from '@pinfold/http'
import { createNodeHandler } from '@pinfold/http-node'
import { exporter } from 'ipfs-unixfs-exporter'
import type { CID } from 'multiformats/cid'
import { type FolderFile, folderForm } from './uploads.js'

export const GATEWAY_SECRET = 'pinfold-gateway-test-secret-0123456789abcdef'

/** Deterministic pseudo-random bytes (Kubo's ChaCha20 recipe), so chunks never repeat. */
export function chacha(seed: string, size: number): Uint8Array {
  const key = createHash('sha256').update(seed).digest()
  return new Uint8Array(createCipheriv('chacha20', key, Buffer.alloc(16)).update(Buffer.alloc(size)))
}

export interface GatewayTestServer {
  url: string
  host: string
  service: FileService
  token(org?: string): Promise<string>
  api(path: string, init?: RequestInit & { org?: string; auth?: string | null }): Promise<Response>
  upload(bytes: Uint8Array | string, fields?: Record<string, string>, org?: string): Promise<Record<string, unknown>>
  /** A public folder upload (paths like `site/a/b.txt`); resolves to the directory's CID. */
  uploadFolder(files: readonly FolderFile[]): Promise<string>
  close(): Promise<void>
}

/** A real HTTP server over memory stores, with options `startServer` does not expose (DNS, clock). */
export async function startGatewayServer(
  options: {
    resolveTxt?: FileServiceOptions['resolveTxt']
    clock?: Clock
    publicHost?: boolean
    /** The API's public URL, when it is not the server's own address (`publicHost`). */
    publicUrl?: string
    subdomainHost?: string
    blobs?: BlobStore
  } = {},
): Promise<GatewayTestServer> {
  const service = createFileService({
    records: createMemoryRecordStore(),
    blobs: options.blobs ?? createMemoryBlobStore(),
    signingSecret: GATEWAY_SECRET,
    resolveTxt: options.resolveTxt,
    clock: options.clock,
  })
  let publicUrl = options.publicUrl
  const handler = createFetchHandler(service, {
    auth: createTokenVerifier({ secret: GATEWAY_SECRET }),
    get publicUrl() {
      return publicUrl
    },
    subdomainHost: options.subdomainHost,
  })
  const server = createServer(createNodeHandler(handler))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  const url = `http://127.0.0.1:${port}`
  if (options.publicHost) publicUrl = url
  const token = (org = 'acme') => mintToken(GATEWAY_SECRET, { sub: 'alice', org, scopes: SCOPES, expiresIn: '1h' })
  const api: GatewayTestServer['api'] = async (path, init = {}) => {
    const { org, auth, ...rest } = init
    const headers = new Headers(rest.headers)
    const bearer = auth === undefined ? await token(org) : auth
    if (bearer !== null) headers.set('authorization', `Bearer ${bearer}`)
    return fetch(`${url}${path}`, { ...rest, headers })
  }
  return {
    url,
    host: `127.0.0.1:${port}`,
    service,
    token,
    api,
    async upload(bytes, fields = {}, org) {
      const body = new FormData()
      body.append('file', new Blob([bytes as Uint8Array<ArrayBuffer>]), fields.name ?? 'file.bin')
      for (const [key, value] of Object.entries(fields)) body.append(key, value)
      const res = await api('/v3/files', { method: 'POST', body, org })
      const json = (await res.json()) as { data: Record<string, unknown>; error?: string }
      if (res.status !== 200) throw new Error(`upload failed: ${res.status} ${json.error}`)
      return json.data
    },
    async uploadFolder(files) {
      const res = await api('/v3/files', { method: 'POST', body: folderForm(files, { network: 'public' }) })
      return ((await res.json()) as { data: { cid: string } }).data.cid
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

/**
 * Reads a CAR response: checks every block hashes to its CID (sha2-256), and returns the roots,
 * the blocks in order, and the files the blocks reassemble to (through the UnixFS exporter, which
 * sees no block but the CAR's).
 */
export async function readVerifiedCar(body: Uint8Array, fileRoot?: CID) {
  const iterator = await CarBlockIterator.fromBytes(body)
  const roots = await iterator.getRoots()
  const blocks: { cid: CID; bytes: Uint8Array }[] = []
  for await (const { cid, bytes } of iterator) {
    const digest = createHash('sha256').update(bytes).digest()
    if (cid.multihash.code !== 0x12 || Buffer.compare(digest, Buffer.from(cid.multihash.digest)) !== 0) {
      throw new Error(`block ${cid} does not hash to its CID`)
    }
    blocks.push({ cid, bytes })
  }
  const byKey = new Map(blocks.map((b) => [Buffer.from(b.cid.multihash.bytes).toString('base64'), b.bytes]))
  const store = {
    async *get(cid: CID) {
      const bytes = byKey.get(Buffer.from(cid.multihash.bytes).toString('base64'))
      if (!bytes) throw new Error(`block ${cid} missing from the CAR`)
      yield bytes
    },
  }
  /** A file of the CAR, by CID or by `{cid}/{path}` (names as they are: the exporter decodes nothing). */
  const readFile = async (file: CID | string, offset?: number, length?: number) => {
    const entry = await exporter(file, store)
    if (entry.type !== 'file' && entry.type !== 'raw') throw new Error(`not a file: ${entry.type}`)
    const parts: Uint8Array[] = []
    for await (const chunk of entry.content({ offset, length })) parts.push(chunk)
    return new Uint8Array(Buffer.concat(parts))
  }
  const reassemble = (offset?: number, length?: number) => readFile(fileRoot ?? roots[0]!, offset, length)
  return { roots, blocks, reassemble, readFile }
}
