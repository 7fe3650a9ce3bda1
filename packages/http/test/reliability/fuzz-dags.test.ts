import { type Block, bucket, pbBlock, publicCarForm, rawBlock } from '@pinfold/testing/dag-builders'
import { type GatewayTestApi, startGatewayApi } from '@pinfold/testing/gateway'
import { carBytes } from '@pinfold/testing/uploads'
import fc from 'fast-check'
import { UnixFS } from 'ipfs-unixfs'
import type { CID } from 'multiformats/cid'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

/**
 * The adversarial-DAG class of issue 16 as a property: small CARs whose nodes link to the same
 * children many times, claim sizes they do not hold, or are not UnixFS at all, uploaded publicly
 * and then read anonymously in every way the gateway offers. No answer may be a 5xx, every read
 * ends (answered or cut) in bounded time, and the server keeps answering.
 */
const RUNS = Math.max(4, Math.round(Number(process.env.PINFOLD_FUZZ_RUNS ?? 40) / 4))

type Kind = 'file' | 'directory' | 'hamt' | 'garbage'

interface Shape {
  kind: Kind
  depth: number
  fanout: number
  /** Sizes the file nodes claim per child, scaled from the true size (1 = honest). */
  sizeFactor: number
  leafBytes: number
}

const shape: fc.Arbitrary<Shape> = fc.record({
  kind: fc.constantFrom<Kind>('file', 'directory', 'hamt', 'garbage'),
  depth: fc.integer({ min: 1, max: 6 }),
  fanout: fc.constantFrom(1, 2, 16, 174, 256),
  sizeFactor: fc.constantFrom(0, 1, 1, 2),
  leafBytes: fc.constantFrom(0, 1, 100),
})

/** Builds the DAG of a shape: each level links `fanout` times to the single node of the level below. */
async function build(s: Shape): Promise<{ root: CID; blocks: Block[] }> {
  let child = await rawBlock(new Uint8Array(s.leafBytes).fill(0x61))
  let childSize = BigInt(s.leafBytes)
  const blocks: Block[] = [child]
  for (let level = 0; level < s.depth; level++) {
    const fanout = s.kind === 'hamt' ? Math.min(s.fanout, 256) : s.fanout
    const links = Array.from({ length: fanout }, (_, i) => ({
      Hash: child.cid,
      Name:
        s.kind === 'hamt' ? `${bucket(i)}${level === 0 ? `n${i}` : ''}` : s.kind === 'directory' ? `e${i}` : undefined,
      Tsize: Number(childSize),
    }))
    const node =
      s.kind === 'file'
        ? new UnixFS({ type: 'file', blockSizes: links.map(() => childSize * BigInt(s.sizeFactor)) })
        : s.kind === 'directory'
          ? new UnixFS({ type: 'directory' })
          : s.kind === 'hamt'
            ? new UnixFS({ type: 'hamt-sharded-directory', fanout: 256n, hashType: 0x22n })
            : Uint8Array.from([0x08, 0xff, 0xff, 0xff, 0xff, 0x0f]) // a varint field that never ends well
    child = await pbBlock(node, links)
    childSize *= BigInt(fanout)
    blocks.push(child)
  }
  return { root: child.cid, blocks }
}

const READS = [
  '',
  '/',
  '/e0',
  '/n0',
  '?format=raw',
  '?format=car',
  '?format=car&dag-scope=entity',
  '?format=car&dag-scope=block',
  '?format=car&entity-bytes=10:1000000',
  '?format=car&entity-bytes=-100:*',
]

describe('fuzz: adversarial DAGs on the public gateway', () => {
  let server: GatewayTestApi
  beforeAll(async () => {
    server = await startGatewayApi()
  })
  afterAll(() => server.close())

  it('gateway - no read of a repeated, lying or non-UnixFS DAG is a 5xx, runs unbounded or stops the server', async () => {
    await fc.assert(
      fc.asyncProperty(shape, fc.constantFrom(...READS), fc.boolean(), async (s, read, ranged) => {
        const { root, blocks } = await build(s)
        const body = publicCarForm(await carBytes([root], blocks))
        expect((await server.api('/v3/files', { method: 'POST', body })).status).toBe(200)
        const started = Date.now()
        const headers = ranged ? { range: 'bytes=5-5000' } : undefined
        const outcome = await server
          .fetch(`${server.url}/ipfs/${root}${read}`, {
            headers,
            signal: AbortSignal.timeout(20_000),
          })
          .then(async (res) => ({ status: res.status, bytes: await readUpTo(res, 4 * 1024 * 1024) }))
          .catch(() => ({ status: 0, bytes: 0 })) // a stream cut off by its work budget
        expect(outcome.status, `${JSON.stringify(s)} ${read}`).toBeLessThan(500)
        expect(Date.now() - started, `${JSON.stringify(s)} ${read}`).toBeLessThan(20_000)
        expect((await server.fetch(`${server.url}/healthz`)).status).toBe(200)
      }),
      { numRuns: RUNS },
    )
  })
})

/**
 * Reads at most `limit` bytes, then hangs up like a client that has seen enough: an honest DAG of
 * repeated leaves may describe more bytes than anyone reads, and sending them is no fault.
 */
async function readUpTo(res: Response, limit: number): Promise<number> {
  const reader = res.body?.getReader()
  let total = 0
  while (reader && total < limit) {
    const { done, value } = await reader.read()
    if (done) break
    total += value.byteLength
  }
  await reader?.cancel()
  return total
}
