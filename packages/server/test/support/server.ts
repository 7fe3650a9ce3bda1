import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type ApiTarget, apiClient, TEST_SECRET, testTokens } from '@pinfold/testing/test-api'
import { type RunningServer, readConfig, startServer } from '../../src/index.js'
import { openStorage } from '../../src/storage.js'
import { prepareStorage } from './storage-setup.js'

/**
 * `pinfold serve` in this process: the configuration read from an environment (`readConfig`) and
 * the server started as the CLI starts it (`startServer`), listening on a loopback port, on the
 * storage `PINFOLD_TEST_STORAGE` names. For tests where a real server is the point: the node:http
 * bridge, real clients that need a URL, restarts, configuration. API behaviour is tested in process
 * (packages/http/test).
 */
export interface TestServer extends ApiTarget {
  running: RunningServer
  /** Stops the server and starts it again on the same port, data directory and database. */
  restart(): Promise<void>
  dataDir: string
  close(): Promise<void>
}

/**
 * `options.storage: 'memory'`: memory stores whatever `PINFOLD_TEST_STORAGE` says, for tests whose
 * point is not storage (a client library's requests). `options.basePath` mounts the API (and the
 * console) under a prefix; `url` stays the origin.
 */
export async function startTestServer(
  env: Record<string, string> = {},
  options: { storage?: 'memory'; basePath?: string } = {},
): Promise<TestServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'pinfold-http-'))
  const storage = await prepareStorage(options.storage)
  const config = readConfig({
    PORT: '0',
    ...storage.env,
    PINFOLD_DATA_DIR: dataDir,
    PINFOLD_AUTH_SECRET: TEST_SECRET,
    ...env,
  })
  let stores = await openStorage(config)
  let running = await startServer(config, { stores, basePath: options.basePath })
  config.port = Number(new URL(running.url).port)
  const token = testTokens()
  const server: TestServer = {
    url: running.url,
    running,
    get service() {
      return running.service
    },
    stores,
    dataDir,
    token,
    api: apiClient(fetch, running.url, token, await token()),
    fetch: (input, init) => fetch(input, init),
    blobCount: () => storage.countBlobs(stores.blobs, dataDir),
    async restart() {
      await running.close()
      await stores.close()
      stores = await openStorage(config)
      running = await startServer(config, { stores, basePath: options.basePath })
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
