import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type ApiClient, apiClient, TEST_SECRET, testTokens } from '@pinfold/testing/test-api'
import { type RunningServer, readConfig, startServer } from '../../src/index.js'
import { openStorage } from '../../src/storage.js'
import { prepareStorage } from './storage-setup.js'

/**
 * `pinfold serve` in this process with its webhook loops running, sending to a receiver on loopback
 * (`PINFOLD_WEBHOOK_ALLOW_PRIVATE`) and polling its outbox every 50 ms. The suites whose subject is
 * what the server tells a webhook (webhooks.test.ts, denylist-sources.test.ts) started it alike;
 * this is that start, written once. Unlike `startTestServer`, a restart keeps the stores open, so
 * even memory storage keeps its records across it: what changes is only the server and its loops.
 */
export interface WebhookServer {
  api: ApiClient
  stores: Awaited<ReturnType<typeof openStorage>>
  /** The running server (a new one after each restart). */
  running(): RunningServer
  /** Closes the server (its loops give back what they hold) and starts a new one on the same stores. */
  restart(env?: Record<string, string>): Promise<void>
  close(): Promise<void>
}

/** `storageKind`: the storage `PINFOLD_TEST_STORAGE` names when left out. `env` adds to the defaults. */
export async function startWebhookServer(
  storageKind?: 'memory' | 'embedded' | 'postgres',
  env: Record<string, string> = {},
): Promise<WebhookServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'pinfold-hooks-'))
  const storage = await prepareStorage(storageKind)
  const base = {
    PORT: '0',
    ...storage.env,
    PINFOLD_DATA_DIR: dataDir,
    PINFOLD_AUTH_SECRET: TEST_SECRET,
    PINFOLD_WEBHOOK_ALLOW_PRIVATE: 'true',
    PINFOLD_WEBHOOK_POLL_MS: '50',
  }
  const config = readConfig({ ...base, ...env })
  const stores = await openStorage(config)
  let running: RunningServer = await startServer(config, { stores })
  const token = testTokens()
  const defaultToken = await token()
  return {
    api: (path, init) => apiClient(fetch, running.url, token, defaultToken)(path, init),
    stores,
    running: () => running,
    async restart(overrides = {}) {
      await running.close()
      running = await startServer(readConfig({ ...base, ...env, ...overrides }), { stores })
    },
    async close() {
      await running.close()
      await stores.close()
      await storage.close()
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}
