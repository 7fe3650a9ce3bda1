import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type BlobStore, mintToken, type RecordStore, SCOPES } from '@pinfold/core'
import { type RunningServer, readConfig, startServer } from '../../src/index.js'
import { openStorage } from '../../src/storage.js'
import { prepareStorage } from './storage-setup.js'

export const TEST_SECRET = 'pinfold-test-secret-0123456789abcdef0123456789'

export interface TestServer {
  url: string
  running: RunningServer
  /**
   * The stores the server runs on, opened by the test support (not by the server) so that tests can
   * look into them; a restart opens them again.
   */
  stores: { records: RecordStore; blobs: BlobStore }
  /** A token for `org` (default tenant "acme") with the given scopes (default: every scope). */
  token(options?: { sub?: string; org?: string; scopes?: readonly string[]; expiresIn?: number }): Promise<string>
  /** fetch against the server with a bearer token of tenant "acme" unless `auth` is given. */
  api: ApiClient
  /** Blobs held by the server's blob store, counted in the backend. */
  blobCount(): number
  /** Stops the server and starts it again on the same port, data directory and database. */
  restart(): Promise<void>
  dataDir: string
  close(): Promise<void>
}

/** `init.auth`: another bearer token, or `null` for none; by default the server's own token. */
export type ApiClient = (path: string, init?: RequestInit & { auth?: string | null }) => Promise<Response>

/** Requests to `baseUrl` with a bearer token, as every test server offers them. */
export function apiClient(baseUrl: string, defaultToken: string): ApiClient {
  return (path, init = {}) => {
    const { auth, ...rest } = init
    const headers = new Headers(rest.headers)
    const bearer = auth === undefined ? defaultToken : auth
    if (bearer !== null) headers.set('authorization', `Bearer ${bearer}`)
    return fetch(`${baseUrl}${path}`, { ...rest, headers })
  }
}

export async function startTestServer(env: Record<string, string> = {}): Promise<TestServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'pinfold-http-'))
  const storage = await prepareStorage()
  const config = readConfig({
    PORT: '0',
    ...storage.env,
    PINFOLD_DATA_DIR: dataDir,
    PINFOLD_AUTH_SECRET: TEST_SECRET,
    ...env,
  })
  let stores = await openStorage(config)
  let running = await startServer(config, { stores })
  config.port = Number(new URL(running.url).port)
  const token: TestServer['token'] = (options = {}) =>
    mintToken(TEST_SECRET, {
      sub: options.sub ?? 'alice',
      org: options.org ?? 'acme',
      scopes: options.scopes ?? SCOPES,
      expiresIn: options.expiresIn ?? '1h',
    })
  const defaultToken = await token()
  const server: TestServer = {
    url: running.url,
    running,
    stores,
    dataDir,
    token,
    api: apiClient(running.url, defaultToken),
    blobCount: () => storage.countBlobs(stores.blobs, dataDir),
    async restart() {
      await running.close()
      await stores.close()
      stores = await openStorage(config)
      running = await startServer(config, { stores })
      server.running = running
      server.stores = stores
    },
    async close() {
      await running.close()
      await stores.close()
      await storage.close()
      await rm(dataDir, { recursive: true, force: true })
    },
  }
  return server
}

export function form(
  fields: Record<string, string>,
  file?: { bytes: Uint8Array | string; name?: string; type?: string },
): FormData {
  const body = new FormData()
  if (file) {
    const blob = new Blob([file.bytes as string], file.type === undefined ? {} : { type: file.type })
    body.append('file', blob, file.name ?? 'file.bin')
  }
  for (const [key, value] of Object.entries(fields)) body.append(key, value)
  return body
}

export async function upload(
  server: TestServer,
  file: { bytes: Uint8Array | string; name?: string; type?: string },
  fields: Record<string, string> = {},
  auth?: string,
) {
  const res = await server.api('/v3/files', { method: 'POST', body: form(fields, file), auth })
  return { status: res.status, body: (await res.json()) as { data: Record<string, unknown>; error?: string } }
}
