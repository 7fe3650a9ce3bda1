import { monitorEventLoopDelay } from 'node:perf_hooks'
import { deflateSync } from 'node:zlib'
import { afterAll, describe, expect, it } from 'vitest'
import { createExtractionPool } from '../src/index.js'

async function* chunks(content: string | Uint8Array): AsyncGenerator<Uint8Array> {
  yield typeof content === 'string' ? new TextEncoder().encode(content) : content
}

/** The longest the event loop stalled while `work` ran, in milliseconds. */
async function longestStall<T>(work: () => Promise<T>): Promise<{ result: PromiseSettledResult<T>; stallMs: number }> {
  const histogram = monitorEventLoopDelay({ resolution: 10 })
  histogram.enable()
  const [result] = await Promise.allSettled([work()])
  histogram.disable()
  return { result: result!, stallMs: histogram.max / 1e6 }
}

describe('createExtractionPool', () => {
  const pool = createExtractionPool({ threads: 1 })
  afterAll(() => pool.close())

  it('extract - parses on a worker thread and answers the passages extractPassages would', async () => {
    const passages = await pool.extract(
      chunks('<h1>Pinfold</h1><p>Stores files. <script>x()</script>Finds them.</p>'),
      {
        mimeType: 'text/html',
      },
    )
    expect(passages).toEqual(['Pinfold Stores files. Finds them.'])
  })

  it('extract - coded errors cross the thread boundary with their code', async () => {
    await expect(pool.extract(chunks('{"a":'), { mimeType: 'application/json' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/JSON/),
    })
  })

  it('extract - 1 MB of nested <div>s is extracted in linear time, the event loop free', async () => {
    const depth = 100_000 // 1.1 MB
    const html = `${'<div>'.repeat(depth)}deep inside${'</div>'.repeat(depth)}`
    const { result, stallMs } = await longestStall(() => pool.extract(chunks(html), { mimeType: 'text/html' }))
    expect(result).toEqual({ status: 'fulfilled', value: ['deep inside'] })
    expect(stallMs).toBeLessThan(500) // on the main thread this stalled it for tens of seconds
  })

  it('extract - JSON nested 100,000 deep is walked without overflowing the stack', async () => {
    const json = `${'['.repeat(100_000)}"deepest"${']'.repeat(100_000)}`
    expect(await pool.extract(chunks(json), { mimeType: 'application/json' })).toEqual(['deepest'])
  })

  it('extract - a PDF stream inflating past maxInflatedBytes is refused with PAYLOAD_TOO_LARGE', async () => {
    const bomb = deflateSync(new Uint8Array(64 * 1024 * 1024), { level: 9 }) // 64 MiB of zeros in ~64 KB
    const pdf = Buffer.concat([
      Buffer.from(`%PDF-1.7\n4 0 obj\n<< /Length ${bomb.length} /Filter /FlateDecode >>\nstream\n`),
      bomb,
      Buffer.from('\nendstream\nendobj\n%%EOF\n'),
    ])
    const { result, stallMs } = await longestStall(() => pool.extract(chunks(pdf), { mimeType: 'application/pdf' }))
    expect(result).toMatchObject({ status: 'rejected', reason: { code: 'PAYLOAD_TOO_LARGE' } })
    expect((result as PromiseRejectedResult).reason.message).toMatch(/inflate to more than 52428800 bytes/)
    expect(stallMs).toBeLessThan(500)
  })

  it('timeoutMs - a worker past its time is terminated and the extraction refused with UNPROCESSABLE', async () => {
    const slow = createExtractionPool({ threads: 1, timeoutMs: 5 }) // less than a worker needs to start
    try {
      await expect(slow.extract(chunks('x '.repeat(1000)), { mimeType: 'text/plain' })).rejects.toMatchObject({
        code: 'UNPROCESSABLE',
        message: 'the TEXT file could not be extracted within 0.005 s',
      })
    } finally {
      await slow.close()
    }
  })

  it('maxHeapMb - a worker out of heap is terminated and the extraction refused with UNPROCESSABLE', async () => {
    const small = createExtractionPool({ threads: 1, maxHeapMb: 16 })
    try {
      const text = 'All work and no play. '.repeat(450_000) // 10 MB: its passages need more than 16 MiB
      await expect(
        small.extract(chunks(text), { mimeType: 'text/plain', maxTextChars: 20_000_000 }),
      ).rejects.toMatchObject({ code: 'UNPROCESSABLE', message: expect.stringMatching(/within 16 MiB of memory/) })
    } finally {
      await small.close()
    }
  })

  it('maxQueue - an extraction beyond the queue is refused with RATE_LIMITED', async () => {
    const busy = createExtractionPool({ threads: 1, maxQueue: 1, maxPerTenant: 3 })
    try {
      const text = { mimeType: 'text/plain' }
      const results = await Promise.allSettled([1, 2, 3].map(() => busy.extract(chunks('Some text.'), text)))
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected'])
      expect(results[2]).toMatchObject({ reason: { code: 'RATE_LIMITED' } })
    } finally {
      await busy.close()
    }
  })

  it("maxPerTenant - a tenant holding its share is refused with RATE_LIMITED, another tenant's extraction still runs", async () => {
    const shared = createExtractionPool({ threads: 1, maxQueue: 10, maxPerTenant: 1 })
    try {
      const text = (tenant: string) => ({ mimeType: 'text/plain', tenant })
      const [first, second, other] = await Promise.allSettled([
        shared.extract(chunks('First text.'), text('tenant-a')),
        shared.extract(chunks('Second text.'), text('tenant-a')),
        shared.extract(chunks('Other text.'), text('tenant-b')),
      ])
      expect(first).toEqual({ status: 'fulfilled', value: ['First text.'] })
      expect(second).toMatchObject({
        status: 'rejected',
        reason: {
          code: 'RATE_LIMITED',
          message: 'too many text extractions of this account are running or waiting (at most 1); try again shortly',
        },
      })
      expect(other).toEqual({ status: 'fulfilled', value: ['Other text.'] })
      // once its extraction is done, the tenant has its share again
      expect(await shared.extract(chunks('Third text.'), text('tenant-a'))).toEqual(['Third text.'])
    } finally {
      await shared.close()
    }
  })
})
