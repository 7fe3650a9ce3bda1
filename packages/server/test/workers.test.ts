import { randomUUID } from 'node:crypto'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { mintToken, SCOPES } from '@pinfold/core'
import { freshSchema } from '@pinfold/testing/storage'
import { form, TEST_SECRET } from '@pinfold/testing/test-api'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ChildServer, exited, startChildServer } from './support/child-server.js'
import { scrape } from './support/scrape.js'
import { waitFor } from './support/wait-for.js'

const METRICS_TOKEN = 'workers-metrics-token-0123456789'

const storages: [string, () => Promise<Record<string, string>>][] = [
  ['embedded (PGlite owned by the primary)', async () => ({})],
]
const testDatabase = process.env.TEST_DATABASE_URL
if (testDatabase) storages.push(['PostgreSQL', async () => ({ DATABASE_URL: await freshSchema(testDatabase) })])

/**
 * `pinfold serve --workers 2`, one server per storage: what only a cluster of real processes has
 * (one port shared, a worker killed and started again, SIGTERM through the primary).
 */
describe.each(storages)('pinfold serve --workers 2 on %s', { timeout: 120_000 }, (storage, database) => {
  let dataDir: string
  let server: ChildServer
  let token: string
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'pinfold-workers-'))
    server = await startChildServer({
      PINFOLD_WORKERS: '2',
      PINFOLD_STORAGE: 'embedded',
      PINFOLD_DATA_DIR: dataDir,
      PINFOLD_AUTH_SECRET: TEST_SECRET,
      PINFOLD_METRICS_TOKEN: METRICS_TOKEN,
      ...(await database()),
    })
    token = await mintToken(TEST_SECRET, { sub: 'workers', scopes: SCOPES, expiresIn: '1h' })
  }, 120_000)
  afterAll(async () => {
    if (server.child.exitCode === null) server.child.kill('SIGKILL')
    await rm(dataDir, { recursive: true, force: true })
  })

  /** The log lines of the whole cluster so far, parsed. */
  const lines = () =>
    server
      .stdout()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>)

  /** Which worker answered the request `id` (from its request log line). */
  const workerOf = (id: string) =>
    waitFor(
      `the log line of ${id}`,
      async () => lines().find((line) => line.request_id === id)?.worker as number,
      10_000,
    )

  /** A request on a connection of its own (the cluster spreads connections), tagged for the log. */
  const call = (method: string, path: string, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; body: string; worker: Promise<number> }>((resolve, reject) => {
      const id = randomUUID()
      const req = request(`${server.url}${path}`, { method, agent: false, headers: { ...headers, 'x-request-id': id } })
      req.on('error', reject)
      req.on('response', (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => {
          body += chunk
        })
        res.on('end', () => resolve({ status: res.statusCode!, body, worker: workerOf(id) }))
      })
      req.end()
    })

  let requestsMade = 0
  /** GETs `path` on fresh connections until both workers have answered it; their answers. */
  async function fromBothWorkers(path: string) {
    const answers = new Map<number, { status: number; body: string }>()
    for (let i = 0; i < 10 && answers.size < 2; i++) {
      const answer = await call('GET', path)
      requestsMade++
      answers.set(await answer.worker, answer)
    }
    expect([...answers.keys()].sort()).toEqual([1, 2])
    return [...answers.values()]
  }

  async function upload(text: string) {
    const res = await fetch(`${server.url}/v3/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form({ network: 'public', name: `${text}.txt` }, { bytes: text }),
    })
    expect(res.status).toBe(200)
    return ((await res.json()) as { data: { id: string; cid: string } }).data
  }

  it('answers on one port from both workers; an upload on one is read, and its deletion seen, through the other', async () => {
    const file = await upload(`spread-${randomUUID()}`)
    // read (and cached) by each worker
    for (const answer of await fromBothWorkers(`/ipfs/${file.cid}`)) expect(answer.status).toBe(200)
    const deleted = await call('DELETE', `/v3/files/public/${file.id}`, { authorization: `Bearer ${token}` })
    expect(deleted.status).toBeLessThan(300)
    // the worker that did not delete it dropped its cached fact: the change went through the cluster
    // (the primary's relay, or PostgreSQL's NOTIFY, which is asynchronous: a short wait there)
    const gone = async () => (await fromBothWorkers(`/ipfs/${file.cid}`)).every((answer) => answer.status === 404)
    await waitFor('both workers to answer 404', async () => ((await gone()) ? true : undefined), 2_000)
  })

  it('the data directory stays locked to one process: the primary, which owns the embedded database', async () => {
    const lock = await readFile(join(dataDir, 'pinfold.lock'), 'utf8').catch(() => undefined)
    if (storage.startsWith('embedded')) expect(Number(lock)).toBe(server.child.pid)
    // on PostgreSQL nothing of the data directory needs one owner
    else expect(lock).toBeUndefined()
  })

  it('background jobs run in one worker; /metrics sums the workers', async () => {
    const jobs = lines().filter((line) => line.message === 'background jobs run in this worker')
    expect(jobs.map((line) => line.worker)).toEqual([1])
    const before = (await scrape(`${server.url}/metrics`, METRICS_TOKEN)).value('pinfold_http_requests_total')
    const made = requestsMade
    await fromBothWorkers('/healthz')
    await fromBothWorkers('/healthz')
    const after = (await scrape(`${server.url}/metrics`, METRICS_TOKEN)).value('pinfold_http_requests_total')
    // every request of both workers is counted, whichever worker answered the scrape
    expect(after - before).toBe(requestsMade - made)
  })

  it('a worker killed is started again and serves; SIGTERM stops the cluster cleanly', async () => {
    const started = lines().filter((line) => line.message === 'worker listening')
    const second = started.find((line) => line.worker === 2)!
    process.kill(second.pid as number, 'SIGKILL')
    await waitFor(
      'worker 2 to be started again',
      async () => lines().filter((line) => line.message === 'worker listening' && line.worker === 2)[1],
      60_000,
    )
    const file = await upload(`after-restart-${randomUUID()}`)
    for (const answer of await fromBothWorkers(`/ipfs/${file.cid}`)) expect(answer.status).toBe(200)

    const pids = lines()
      .filter((line) => line.message === 'worker listening')
      .map((line) => line.pid as number)
    server.child.kill('SIGTERM')
    expect(await exited(server.child)).toBe(0)
    expect(lines().some((line) => line.message === 'stopped')).toBe(true)
    for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow()
  })
})
