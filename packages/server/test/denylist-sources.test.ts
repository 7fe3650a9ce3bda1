import { createHash } from 'node:crypto'
import { appendFile, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type ListProblem, parseAnyCid } from '@pinfold/core'
import { type ApiClient, form } from '@pinfold/testing/test-api'
import { base32 } from 'multiformats/bases/base32'
import { base58btc } from 'multiformats/bases/base58'
import { CID } from 'multiformats/cid'
import { sha256 } from 'multiformats/hashes/sha2'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseDenylistSources, type RunningDenylists, startDenylistSources } from '../src/denylist-sources.js'
import { parseScrape } from './support/scrape.js'
import { waitFor } from './support/wait-for.js'
import { type ReceivedWebhook, startWebhookReceiver } from './support/webhook-receiver.js'
import { startWebhookServer, type WebhookServer } from './support/webhook-server.js'

const A = 'bafybeihvvulpp4evxj7x7armbqcyg6uezzuig6jp3lktpbovlqfkuqeuoq'
const B = 'QmdWFA9FL52hx3j9EJZPQP1ZUH8Ygi5tLCX2cRDs6knSf8'
const C = 'bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku'.replace('hdwd', 'aaaa')
const blockedBy = (running: RunningDenylists, cid: string) => running.lists.checkCid(parseAnyCid(cid))

async function until(check: () => boolean, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

describe('deny-list sources', () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pinfold-deny-'))
  })
  afterAll(() => rm(dir, { recursive: true, force: true }))

  it('PINFOLD_DENYLISTS - paths and URLs, named by their last segment; two lists of one name are refused', () => {
    expect(parseDenylistSources('/etc/ipfs/a.deny, https://badbits.dwebops.pub/badbits.deny')).toEqual([
      { kind: 'file', name: 'a.deny', location: '/etc/ipfs/a.deny' },
      { kind: 'http', name: 'badbits.deny', location: 'https://badbits.dwebops.pub/badbits.deny' },
    ])
    expect(parseDenylistSources(undefined)).toEqual([])
    expect(() => parseDenylistSources('/a/x.deny,/b/x.deny')).toThrow('two lists are named x.deny')
  })

  it('file - appended lines apply without a restart; a malformed one is reported with its line; a file that cannot be read keeps its last good list', async () => {
    const path = join(dir, 'ops.deny')
    await writeFile(path, `name: ops\n---\n/ipfs/${A}\n`)
    const problems: ListProblem[] = []
    const failures: (string | undefined)[] = []
    const running = await startDenylistSources(parseDenylistSources(path), {
      fileCheckMs: 30,
      onProblem: (problem) => problems.push(problem),
      onFailure: (_, error) => failures.push(error),
    })
    try {
      expect(blockedBy(running, A)).toMatchObject({ list: 'ops.deny', line: 3 })
      expect(blockedBy(running, B)).toBeUndefined()
      await appendFile(path, `/ipfs/not-a-cid\n/ipfs/${B}\n`)
      await until(() => blockedBy(running, B) !== undefined)
      expect(blockedBy(running, B)).toMatchObject({ line: 5 })
      expect(problems).toEqual([{ list: 'ops.deny', line: 4, reason: '"not-a-cid" is not a CID' }])
      await rm(path)
      await until(() => running.lists.failure('ops.deny') !== undefined)
      expect(blockedBy(running, A)).toMatchObject({ line: 3 }) // the last good version stays
      // rewritten shorter: read again whole
      await writeFile(path, `/ipfs/${C}\n`)
      await until(() => blockedBy(running, C) !== undefined)
      expect(blockedBy(running, A)).toBeUndefined()
      expect(running.lists.failure('ops.deny')).toBeUndefined()
      expect(failures.at(-1)).toBeUndefined()
    } finally {
      running.stop()
    }
  })

  describe('HTTP subscription', () => {
    let server: Server
    let url: string
    let body = `/ipfs/${A}\n`
    let down = false
    const seen: { range: string | undefined; ifNoneMatch: string | undefined; status: number }[] = []
    beforeAll(async () => {
      server = createServer((req, res) => {
        const etag = `"${body.length}"`
        const range = req.headers.range
        const answer = (status: number, headers: Record<string, string> = {}, text = '') => {
          seen.push({ range, ifNoneMatch: req.headers['if-none-match'], status })
          res.writeHead(status, { etag, ...headers }).end(text)
        }
        if (down) return answer(503)
        if (req.headers['if-none-match'] === etag) return answer(304)
        const from = range ? Number(/bytes=(\d+)-/.exec(range)![1]) : undefined
        if (from === undefined) return answer(200, {}, body)
        if (from >= body.length) return answer(416)
        return answer(206, { 'content-range': `bytes ${from}-${body.length - 1}/${body.length}` }, body.slice(from))
      })
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/lists/sub.deny`
    })
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

    it('fetched whole once, then only its new lines (Range), nothing when unchanged (ETag); a failed refresh keeps the last good list', async () => {
      const running = await startDenylistSources(parseDenylistSources(url), {
        refreshMs: 3_600_000, // refreshed by hand below
        onProblem: () => {},
        onFailure: () => {},
      })
      try {
        expect(blockedBy(running, A)).toMatchObject({ list: 'sub.deny', line: 1 })
        await running.refresh()
        expect(seen.at(-1)).toEqual({ range: `bytes=${body.length}-`, ifNoneMatch: `"${body.length}"`, status: 304 })
        const before = body.length
        body += `/ipfs/${B}\n`
        await running.refresh()
        expect(seen.at(-1)).toMatchObject({ range: `bytes=${before}-`, status: 206 })
        expect(blockedBy(running, B)).toMatchObject({ line: 2 })
        down = true
        await running.refresh()
        expect(running.lists.failure('sub.deny')).toMatch('503')
        expect(blockedBy(running, A)).toBeDefined()
        expect(blockedBy(running, B)).toBeDefined()
        down = false
        await running.refresh()
        expect(running.lists.failure('sub.deny')).toBeUndefined()
      } finally {
        running.stop()
      }
    })
  })
})

/**
 * `content.blocked` for content already held when a deny list's rules change while the server
 * runs: `pinfold serve` in this process (memory stores unless `PINFOLD_TEST_STORAGE` says), a watched list file and an HTTP
 * subscription (node:http on loopback, with ETag and Range as an append-only list's host answers),
 * a tenant's uploads, and a webhook receiver that checks each delivery with `standardwebhooks`.
 * A plain `/ipfs/` rule is found through the holders of its multihash; double-hashed rules (the
 * legacy badbits form, the modern multihash form) by the background pass over every held root.
 * "Restart" starts a new server on the same stores, whose pass tells nobody twice.
 */

interface WireEvent {
  type: string
  actor: { kind: string; id: string }
  target: { kind: string; id: string }
  data: { cid: string; list: string; line: number; site: string; fileIds: string[] }
}

let listDir: string
let listFile: string
let subscription: Server
let subscriptionBody = ''
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>
let server: WebhookServer
const api: ApiClient = (path, init) => server.api(path, init)
let secret: string
const METRICS_TOKEN = 'held-content-metrics-token'

async function upload(name: string): Promise<{ id: string; cid: string }> {
  const res = await api('/v3/files', { method: 'POST', body: form({ name }, { bytes: `held bytes of ${name}` }) })
  expect(res.status).toBe(200)
  return ((await res.json()) as { data: { id: string; cid: string } }).data
}

async function blockedEvents(): Promise<WireEvent[]> {
  const res = await api('/v3/audit/events?type=content.blocked&limit=100')
  expect(res.status).toBe(200)
  return ((await res.json()) as { data: { events: WireEvent[] } }).data.events
}

/** The tenant's `content.blocked` entry for this CID, once there is one. */
function entryFor(cid: string): Promise<WireEvent> {
  return waitFor(
    `content.blocked for ${cid}`,
    async () => (await blockedEvents()).find((e) => e.target.id === cid),
    10_000,
  )
}

/** The verified webhook delivery of the entry for this CID, once it arrived. */
function deliveryFor(cid: string) {
  return waitFor(`a signed delivery for ${cid}`, async () => receivedFor(cid).find(() => true), 10_000)
}

function receivedFor(cid: string) {
  return receiver.received.map((request) => verified(request)).filter((payload) => payload.data.target.id === cid)
}

function verified(request: ReceivedWebhook) {
  const headers = Object.fromEntries(
    ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((name) => [name, String(request.headers[name])]),
  )
  return new Webhook(secret).verify(request.body, headers) as {
    type: string
    data: { target: { kind: string; id: string }; details: { list: string; line: number } }
  }
}

/** badbits' form: the sha256 (hex) of `CIDv1-in-base32/`. */
function legacyRule(cid: string): string {
  const v1 = CID.parse(cid).toV1().toString(base32)
  return `//${createHash('sha256').update(`${v1}/`).digest('hex')}`
}

/** The modern form: a sha2-256 multihash, in base58btc, of the base58btc of the CID's multihash. */
async function modernRule(cid: string): Promise<string> {
  const text = base58btc.baseEncode(CID.parse(cid).multihash.bytes)
  return `//${base58btc.baseEncode((await sha256.digest(new TextEncoder().encode(text))).bytes)}`
}

describe('content.blocked for held content when the deny lists change while serving', () => {
  beforeAll(async () => {
    listDir = await mkdtemp(join(tmpdir(), 'pinfold-held-'))
    listFile = join(listDir, 'ops.deny')
    await writeFile(listFile, '')
    subscription = createServer((req, res) => {
      const body = subscriptionBody
      const etag = `"${body.length}"`
      if (req.headers['if-none-match'] === etag) return res.writeHead(304, { etag }).end()
      const from = req.headers.range ? Number(/bytes=(\d+)-/.exec(req.headers.range)![1]) : undefined
      if (from === undefined) return res.writeHead(200, { etag }).end(body)
      if (from >= body.length) return res.writeHead(416, { etag }).end()
      const range = `bytes ${from}-${body.length - 1}/${body.length}`
      res.writeHead(206, { etag, 'content-range': range }).end(body.slice(from))
    })
    await new Promise<void>((resolve) => subscription.listen(0, '127.0.0.1', resolve))
    const port = (subscription.address() as AddressInfo).port
    receiver = await startWebhookReceiver()
    // memory unless PINFOLD_TEST_STORAGE names another (a manual run on PostgreSQL: postgres + TEST_DATABASE_URL)
    server = await startWebhookServer(undefined, {
      PINFOLD_DENYLISTS: `${listFile},http://127.0.0.1:${port}/lists/sub.deny`,
      PINFOLD_DENYLIST_FILE_CHECK_MS: '50',
      PINFOLD_DENYLIST_REFRESH_MS: '100',
      PINFOLD_DENYLIST_SCAN_PAUSE_MS: '0',
      PINFOLD_METRICS_TOKEN: METRICS_TOKEN,
    })
    const res = await api('/v3/webhooks', {
      method: 'POST',
      body: JSON.stringify({ url: receiver.url, event_types: ['content.blocked'] }),
      headers: { 'content-type': 'application/json' },
    })
    expect(res.status).toBe(201)
    secret = ((await res.json()) as { data: { secret: string } }).data.secret
  })

  afterAll(async () => {
    await server?.close()
    await receiver?.close()
    await new Promise<void>((resolve) => (subscription ? subscription.close(() => resolve()) : resolve()))
    await rm(listDir, { recursive: true, force: true })
  })

  type Held = { id: string; cid: string }
  const held = {} as { plain: Held; legacy: Held; modern: Held }

  it('a line appended to a watched list file: the holder is told once, in the audit log and by a signed webhook', async () => {
    held.plain = await upload('plain.txt')
    const other = await upload('unblocked.txt')
    await appendFile(listFile, `/ipfs/${held.plain.cid}\n`)
    const entry = await entryFor(held.plain.cid)
    expect(entry).toMatchObject({
      actor: { kind: 'system', id: 'denylist' },
      target: { kind: 'cid', id: held.plain.cid },
      data: { cid: held.plain.cid, list: 'ops.deny', line: 1, site: 'scan', fileIds: [held.plain.id] },
    })
    const delivery = await deliveryFor(held.plain.cid)
    expect(delivery).toMatchObject({ type: 'content.blocked', data: { details: { list: 'ops.deny', line: 1 } } })
    await server.running().service.heldContent.settled()
    expect((await blockedEvents()).map((e) => e.target.id)).toEqual([held.plain.cid])
    expect((await blockedEvents()).some((e) => e.target.id === other.cid)).toBe(false)
  })

  it('a legacy (badbits) double-hashed rule arriving with a subscription refresh finds the held root', async () => {
    held.legacy = await upload('legacy.txt')
    subscriptionBody += `${legacyRule(held.legacy.cid)}\n`
    const entry = await entryFor(held.legacy.cid)
    expect(entry.data).toMatchObject({ list: 'sub.deny', line: 1, site: 'scan', fileIds: [held.legacy.id] })
    expect((await deliveryFor(held.legacy.cid)).data.details).toMatchObject({ list: 'sub.deny', line: 1 })
  })

  it('a modern double-hashed rule appended to the file finds the held root; a `!` rule tells nobody', async () => {
    held.modern = await upload('modern.txt')
    const allowed = await upload('allowed.txt')
    await appendFile(listFile, `${await modernRule(held.modern.cid)}\n!/ipfs/${allowed.cid}\n`)
    const entry = await entryFor(held.modern.cid)
    expect(entry.data).toMatchObject({ list: 'ops.deny', line: 2, site: 'scan', fileIds: [held.modern.id] })
    await deliveryFor(held.modern.cid)
    await server.running().service.heldContent.settled()
    const told = (await blockedEvents()).map((e) => e.target.id).sort()
    expect(told).toEqual([held.plain.cid, held.legacy.cid, held.modern.cid].sort())
  })

  it('a restart over changed lists scans every held root again and tells nobody twice', async () => {
    // a comment changes the file's bytes but no rule: the lists are not the ones the last pass checked
    await appendFile(listFile, '# reviewed\n')
    await new Promise((resolve) => setTimeout(resolve, 200))
    await server.restart()
    await server.running().service.heldContent.settled()
    const { rootsChecked, noticesRecorded } = server.running().service.heldContent.status()
    expect(rootsChecked).toBeGreaterThanOrEqual(5)
    expect(noticesRecorded).toBe(0)
    expect(await blockedEvents()).toHaveLength(3)
    // and /metrics says so: every root checked, the three blocked ones found, nobody told again
    const res = await fetch(`${server.running().url}/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    })
    const scrape = parseScrape(await res.text())
    expect(scrape.value('pinfold_denylist_scan_running')).toBe(0)
    expect(scrape.value('pinfold_denylist_scan_roots', { count: 'checked' })).toBe(rootsChecked)
    expect(scrape.value('pinfold_denylist_scan_roots', { count: 'blocked' })).toBe(3)
    expect(scrape.value('pinfold_denylist_scan_roots', { count: 'told' })).toBe(0)
    // nothing further is delivered either: each entry went out once
    await new Promise((resolve) => setTimeout(resolve, 300))
    for (const { cid } of Object.values(held)) expect(receivedFor(cid)).toHaveLength(1)
  })
})
