import { createMemoryChangeFeed } from '@pinfold/adapter-memory'
import { mintOperatorToken } from '@pinfold/core'
import { startTestApi, TEST_SECRET, type TestApi, upload } from '@pinfold/testing/test-api'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

/** Holders read per page: the rule's add tells one page, the held-content scan the rest. */
const HOLDER_PAGE = 3
const BYTES = 'a phishing page held by more files than one page of holders'

interface WireEvent {
  actor: { kind: string; id: string }
  data: { cid: string; list: string; line?: number; site: string; fileIds: string[]; ruleId?: string }
}

/**
 * An operator rule added through the admin API over content held by more files than one page of
 * holders (`denylistHolderPageSize`), on two instances sharing one record store and change feed,
 * each running the held-content scan. Holders are read in tenant order: `a`'s two files and `b`'s
 * first fill the rule's page, so `a` is told in the rule's own transaction and `b` (whose files go
 * on past the page), `c` and `d` by the scan's lookup of the rest. Every tenant gets exactly one
 * `content.blocked`, whichever instance finds it, after another pass, and after a restart's pass.
 */
describe('deny lists: an operator rule tells every holder once, however many hold the content', () => {
  const run = crypto.randomUUID().slice(0, 8)
  const tenants = { a: 2, b: 3, c: 1, d: 2 }
  const org = (name: string) => `holders-${run}-${name}`
  const fileIds = new Map<string, string[]>()
  let first: TestApi
  let second: TestApi
  let operator: string
  let cid: string
  const stops: (() => Promise<void>)[] = []

  beforeAll(async () => {
    const changes = createMemoryChangeFeed()
    const options = { embedder: null, denylistHolderPageSize: HOLDER_PAGE, gatewayCache: { changes } }
    first = await startTestApi(options)
    second = await startTestApi({ ...options, records: first.stores.records, blobs: first.stores.blobs })
    operator = await mintOperatorToken(TEST_SECRET, { sub: 'ops-holders', expiresIn: '1h' })
    for (const [name, count] of Object.entries(tenants)) {
      for (let i = 0; i < count; i++) {
        const token = await first.token({ org: org(name) })
        const { status, body } = await upload(first, { bytes: BYTES, name: `page-${i}.html` }, {}, token)
        expect(status).toBe(200)
        fileIds.set(name, [...(fileIds.get(name) ?? []), String(body.data.id)])
        cid = String(body.data.cid)
      }
    }
    for (const instance of [first, second]) stops.push(await instance.service.heldContent.start({ pauseMs: 0 }))
  })

  afterAll(async () => {
    for (const stop of stops) await stop()
    await second?.close()
    await first?.close()
  })

  async function told(instance: TestApi, name: string): Promise<WireEvent[]> {
    const res = await instance.api('/v3/audit/events?type=content.blocked&limit=100', { org: org(name) })
    expect(res.status).toBe(200)
    return ((await res.json()) as { data: { events: WireEvent[] } }).data.events
  }

  async function settled(...instances: TestApi[]): Promise<void> {
    await Promise.all(instances.map((instance) => instance.service.heldContent.settled()))
  }

  /** Each tenant's one entry: `a` by the rule's add (the operator), the others by the scan. */
  async function expectEachToldOnce(instance: TestApi, ruleId: string, line: number): Promise<void> {
    for (const name of Object.keys(tenants)) {
      const events = await told(instance, name)
      expect(events, name).toHaveLength(1)
      const [entry] = events
      expect([...entry!.data.fileIds].sort(), name).toEqual([...fileIds.get(name)!].sort())
      if (name === 'a') {
        expect(entry).toMatchObject({ actor: { kind: 'operator', id: 'ops-holders' }, data: { site: 'rule', ruleId } })
      } else {
        expect(entry, name).toMatchObject({
          actor: { kind: 'system', id: 'denylist' },
          data: { cid, list: 'operator', line, site: 'scan' },
        })
      }
    }
  }

  it('the add tells its page at once, the scan the rest; a second instance, a later pass and a restart tell nobody twice', async () => {
    const res = await first.api('/admin/v1/deny-rules', {
      method: 'POST',
      body: JSON.stringify({ rule: `/ipfs/${cid}` }),
      headers: { 'content-type': 'application/json' },
      auth: operator,
    })
    expect(res.status).toBe(201)
    const rule = ((await res.json()) as { data: { id: string; line: number } }).data
    // in the rule's own transaction: told before the answer, whatever the scan has done yet
    expect((await told(first, 'a')).map((e) => e.data.site)).toEqual(['rule'])

    // the second instance applies the rule once the change feed's notice is in, and looks its holders up too
    for (let i = 0; i < 200 && (await second.api(`/ipfs/${cid}`)).status !== 410; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    expect((await second.api(`/ipfs/${cid}`)).status).toBe(410)
    await settled(first, second)
    await expectEachToldOnce(first, rule.id, rule.line)
    const recorded = () =>
      first.service.heldContent.status().noticesRecorded + second.service.heldContent.status().noticesRecorded
    expect(recorded()).toBe(3)

    // a pass over every held root reaches the blocked root again and finds every holder told
    first.service.heldContent.listReplaced('operator')
    await settled(first)
    expect(first.service.heldContent.status()).toMatchObject({ rootsBlocked: 1 })
    expect(recorded()).toBe(3)

    // a restart whose saved scan names other lists (they changed while it was down) makes a pass of its own
    await first.stores.records.denyRules.putBlockedScan({ fingerprint: 'the lists before the restart', cursor: null })
    const restarted = await startTestApi({
      embedder: null,
      denylistHolderPageSize: HOLDER_PAGE,
      records: first.stores.records,
      blobs: first.stores.blobs,
    })
    try {
      await restarted.service.denylist.load()
      stops.push(await restarted.service.heldContent.start({ pauseMs: 0 }))
      await settled(restarted)
      expect(restarted.service.heldContent.status()).toMatchObject({ rootsBlocked: 1, noticesRecorded: 0 })
      await expectEachToldOnce(restarted, rule.id, rule.line)
    } finally {
      await stops.pop()!()
      await restarted.close()
    }
  })
})
