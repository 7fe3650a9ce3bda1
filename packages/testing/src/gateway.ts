import { createCipheriv, createHash } from 'node:crypto'
import { CarBlockIterator } from '@ipld/car/iterator'
import { exporter } from 'ipfs-unixfs-exporter'
import type { CID } from 'multiformats/cid'
import { type ApiTarget, startTestApi, TEST_ORIGIN, type TestApi, type TestApiOptions } from './test-api.js'
import { type FolderFile, folderForm } from './uploads.js'

/** Deterministic pseudo-random bytes (Kubo's ChaCha20 recipe), so chunks never repeat. */
export function chacha(seed: string, size: number): Uint8Array {
  const key = createHash('sha256').update(seed).digest()
  return new Uint8Array(createCipheriv('chacha20', key, Buffer.alloc(16)).update(Buffer.alloc(size)))
}

export interface GatewayTestApi extends TestApi {
  upload(bytes: Uint8Array | string, fields?: Record<string, string>, org?: string): Promise<Record<string, unknown>>
  /** A public folder upload (paths like `site/a/b.txt`); resolves to the directory's CID. */
  uploadFolder(files: readonly FolderFile[]): Promise<string>
}

/**
 * The in-process API over memory stores (whatever `PINFOLD_TEST_STORAGE` says: the gateway tests
 * look inside them), with the service options the server does not expose (DNS, clock), and upload
 * shortcuts. `publicHost`: the API's public URL is its own origin.
 */
export async function startGatewayApi(
  options: Pick<
    TestApiOptions,
    | 'resolveTxt'
    | 'clock'
    | 'publicUrl'
    | 'subdomainHost'
    | 'blobs'
    | 'url'
    | 'gatewayDomain'
    | 'images'
    | 'maxUsageRowsPerDay'
    | 'denylists'
    | 'denylistPrivateReads'
    | 'onContentBlocked'
  > & {
    publicHost?: boolean
  } = {},
): Promise<GatewayTestApi> {
  const { publicHost, ...rest } = options
  const api = await startTestApi({
    storage: 'memory',
    ...rest,
    ...(publicHost && { publicUrl: rest.url ?? TEST_ORIGIN }),
  })
  return {
    ...api,
    async upload(bytes, fields = {}, org) {
      const body = new FormData()
      body.append('file', new Blob([bytes as Uint8Array<ArrayBuffer>]), fields.name ?? 'file.bin')
      for (const [key, value] of Object.entries(fields)) body.append(key, value)
      const res = await api.api('/v3/files', { method: 'POST', body, org })
      const json = (await res.json()) as { data: Record<string, unknown>; error?: string }
      if (res.status !== 200) throw new Error(`upload failed: ${res.status} ${json.error}`)
      return json.data
    },
    async uploadFolder(files) {
      const res = await api.api('/v3/files', { method: 'POST', body: folderForm(files, { network: 'public' }) })
      return ((await res.json()) as { data: { cid: string } }).data.cid
    },
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

export interface HostAnswer {
  status: number
  body: string
  headers: Record<string, string | undefined>
}

/**
 * A request for `path` with `host` as its Host, in process: the handler sees `http://{host}{path}`,
 * as the node bridge builds it from the Host header (how the bridge checks Host is tested over a
 * real server in packages/server/test).
 */
export async function requestOnHost(
  server: ApiTarget,
  host: string,
  path: string,
  init: { method?: string; headers?: Record<string, string> } = {},
): Promise<HostAnswer> {
  const res = await server.fetch(`http://${host}${path}`, { ...init, redirect: 'manual' })
  const body = Buffer.from(await res.arrayBuffer()).toString('latin1')
  return { status: res.status, body, headers: Object.fromEntries(res.headers) }
}
