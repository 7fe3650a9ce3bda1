import { describe, expect, it } from 'vitest'
import type { TxtRecords } from '../../src/index.js'
import { createTestService } from '../support/test-service.js'

const CID = 'bafybeig6ka5mlwkl4subqhaiatalkcleo4jgnr3hqwvpmsqfca27cijp3i'
const OTHER = 'bafkreialihlqnf5uwo4byh4n3cmwlntwqzxxs2fg5vanqdi3d7tb2l5xkm'

/** A test service whose TXT answers carry `ttl` and whose lookups are counted. */
function withResolver(answer: (name: string) => Promise<TxtRecords>) {
  const lookups: string[] = []
  const test = createTestService({
    resolveTxt: async (name) => {
      lookups.push(name)
      return answer(name)
    },
  })
  return { ...test, lookups }
}

const records = (values: string[][], ttlSeconds?: number): TxtRecords => Object.assign(values, { ttlSeconds })

describe('dnslink', () => {
  it('resolve - the /ipfs/ path of _dnslink.{host}, its sub-path split into segments', async () => {
    const { service, lookups } = withResolver(async () =>
      records([['v=spf1 -all'], ['dnslink=/ipfs/', `${CID}/blog/2024`]]),
    )
    expect(await service.dnslink.resolve('Site.Example.ORG.')).toEqual({ cid: CID, path: ['blog', '2024'] })
    expect(lookups).toEqual(['_dnslink.site.example.org'])
  })

  it('resolve - of several /ipfs/ records the first in sorted order; /ipns/ and malformed ones are ignored', async () => {
    const { service } = withResolver(async () =>
      records([
        ['dnslink=/ipns/k51qzi5uqu5dlxdsdu5fpuu7h69wu4ohp32iwm9pdt9nq3y5rpn3ln9j12zfhe'],
        ['dnslink=/ipfs/not-a-cid'],
        [`dnslink=/ipfs/${OTHER}`],
        [`dnslink=/ipfs/${CID}`],
      ]),
    )
    // 'bafk…' sorts before 'bafy…'
    expect(await service.dnslink.resolve('a.example.org')).toEqual({ cid: OTHER, path: [] })
    const ipnsOnly = withResolver(async () => records([['dnslink=/ipns/example.com']]))
    expect(await ipnsOnly.service.dnslink.resolve('b.example.org')).toBeUndefined()
  })

  it('resolve - an answer is kept for its TTL, then looked up again', async () => {
    let target = CID
    const test = withResolver(async () => records([[`dnslink=/ipfs/${target}`]], 300))
    expect((await test.service.dnslink.resolve('c.example.org'))?.cid).toBe(CID)
    target = OTHER
    test.clock.advance(299_000)
    expect((await test.service.dnslink.resolve('c.example.org'))?.cid).toBe(CID)
    expect(test.lookups).toHaveLength(1)
    test.clock.advance(2_000)
    expect((await test.service.dnslink.resolve('c.example.org'))?.cid).toBe(OTHER)
    expect(test.lookups).toHaveLength(2)
  })

  it('resolve - without a TTL an answer is kept a minute; a TTL above an hour is held to an hour', async () => {
    const none = withResolver(async () => records([[`dnslink=/ipfs/${CID}`]]))
    await none.service.dnslink.resolve('d.example.org')
    none.clock.advance(59_000)
    await none.service.dnslink.resolve('d.example.org')
    expect(none.lookups).toHaveLength(1)
    none.clock.advance(2_000)
    await none.service.dnslink.resolve('d.example.org')
    expect(none.lookups).toHaveLength(2)

    const long = withResolver(async () => records([[`dnslink=/ipfs/${CID}`]], 86_400))
    await long.service.dnslink.resolve('e.example.org')
    long.clock.advance(3_601_000)
    await long.service.dnslink.resolve('e.example.org')
    expect(long.lookups).toHaveLength(2)
  })

  it('resolve - "no such name" is an answer (undefined, kept a minute); any other failure is UNAVAILABLE and not kept', async () => {
    const missing = withResolver(async (name) => {
      throw Object.assign(new Error(`queryTxt ENOTFOUND ${name}`), { code: 'ENOTFOUND' })
    })
    expect(await missing.service.dnslink.resolve('f.example.org')).toBeUndefined()
    expect(await missing.service.dnslink.resolve('f.example.org')).toBeUndefined()
    expect(missing.lookups).toHaveLength(1)

    let fail = true
    const flaky = withResolver(async (name) => {
      if (fail) throw Object.assign(new Error(`queryTxt ETIMEOUT ${name}`), { code: 'ETIMEOUT' })
      return records([[`dnslink=/ipfs/${CID}`]])
    })
    await expect(flaky.service.dnslink.resolve('g.example.org')).rejects.toMatchObject({ code: 'UNAVAILABLE' })
    fail = false
    expect((await flaky.service.dnslink.resolve('g.example.org'))?.cid).toBe(CID)
  })

  it('resolve - concurrent requests for a cold host share one lookup', async () => {
    let release: () => void = () => {}
    const gate = new Promise<void>((resolve) => {
      release = resolve
    })
    const test = withResolver(async () => {
      await gate
      return records([[`dnslink=/ipfs/${CID}`]])
    })
    const answers = Promise.all([1, 2, 3].map(() => test.service.dnslink.resolve('h.example.org')))
    release()
    expect((await answers).map((a) => a?.cid)).toEqual([CID, CID, CID])
    expect(test.lookups).toHaveLength(1)
  })

  it('resolve - without a TXT resolver no host has a DNSLink', async () => {
    const { service } = createTestService({ resolveTxt: undefined })
    expect(await service.dnslink.resolve('i.example.org')).toBeUndefined()
  })
})
