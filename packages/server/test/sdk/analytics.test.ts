import { pinnedFileCount, totalStorageUsage } from 'pinata'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pinataFor } from '../support/sdk.js'
import { startTestServer, type TestServer } from '../support/server.js'

const today = () => new Date().toISOString().slice(0, 10)

describe('official SDK - analytics and usage', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer()
  })
  afterAll(() => server.close())

  /** A fresh SDK of its own tenant: the SDK's analytics builders keep their filters between calls. */
  const sdkOf = async (org: string) => pinataFor(server.url, await server.token({ org }))

  it('pinnedFileCount / totalStorageUsage - the files of the tenant on both networks and their size', async () => {
    const pinata = await sdkOf('sdk-usage')
    await pinata.upload.public.file(new File(['a'.repeat(100)], 'a.txt'))
    await pinata.upload.private.file(new File(['b'.repeat(250)], 'b.txt'))
    expect(await pinnedFileCount(pinata.config)).toBe(2)
    expect(await totalStorageUsage(pinata.config)).toBe(350)
    expect(await pinnedFileCount((await sdkOf('sdk-usage-empty')).config)).toBe(0)
  })

  it('analytics.requests / analytics.bandwidth - what private reads served, by CID and by file name', async () => {
    const org = 'sdk-analytics'
    const pinata = await sdkOf(org)
    const report = await pinata.upload.private.file(new File(['r'.repeat(4000)], 'report.pdf'))
    const logo = await pinata.upload.private.file(new File(['l'.repeat(500)], 'logo.png'))
    for (let i = 0; i < 3; i++) await pinata.gateways.private.get(logo.cid)
    const link = await pinata.gateways.private.createAccessLink({ cid: report.cid, expires: 60 })
    expect((await (await fetch(link)).arrayBuffer()).byteLength).toBe(4000)

    const byRequests = await (await sdkOf(org)).analytics.requests.customDates(today(), today()).cid()
    expect(byRequests).toEqual({
      data: [
        { value: logo.cid, requests: 3, bandwidth: 1500 },
        { value: report.cid, requests: 1, bandwidth: 4000 },
      ],
    })
    const byBandwidth = await (await sdkOf(org)).analytics.bandwidth.customDates(today(), today()).fileName().limit(1)
    expect(byBandwidth).toEqual({ data: [{ value: 'report.pdf', requests: 1, bandwidth: 4000 }] })
    const ascending = await (await sdkOf(org)).analytics.requests.days(7).cid().sort('asc')
    expect(ascending.data.map((item) => item.value)).toEqual([report.cid, logo.cid])
    const one = await (await sdkOf(org)).analytics.requests.customDates(today(), today()).cid(report.cid)
    expect(one.data).toEqual([{ value: report.cid, requests: 1, bandwidth: 4000 }])
    expect((await (await sdkOf('sdk-quiet')).analytics.requests.days(7)).data).toEqual([])
  })

  it('analytics.summary - totals and per-day periods', async () => {
    const org = 'sdk-summary'
    const pinata = await sdkOf(org)
    const file = await pinata.upload.private.file(new File(['s'.repeat(64)], 'summary.txt'))
    for (let i = 0; i < 2; i++) await pinata.gateways.private.get(file.cid)
    const summary = await pinata.analytics.summary({ domain: 'ignored', start: today(), end: today(), interval: 'day' })
    expect(summary).toEqual({
      total_requests: 2,
      total_bandwidth: 128,
      time_periods: [{ period_start_time: `${today()}T00:00:00Z`, requests: 2, bandwidth: 128 }],
    })
    const weekly = await pinata.analytics
      .summary({ domain: 'ignored', start: today(), end: today(), interval: 'week' })
      .sortBy('bandwidth')
    expect(weekly.total_bandwidth).toBe(128)
    expect(weekly.time_periods).toHaveLength(1)
  })

  it('analytics - a dimension Pinfold does not record is a NetworkError 400, not an unfiltered answer', async () => {
    const pinata = await sdkOf('sdk-analytics-country')
    await expect(pinata.analytics.requests.days(7).country('FR')).rejects.toMatchObject({
      name: 'NetworkError',
      statusCode: 400,
    })
  })
})
