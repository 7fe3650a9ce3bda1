import { createHash } from 'node:crypto'
import { CarBlockIterator } from '@ipld/car/iterator'
import { createMemoryBlobStore, createMemoryRecordStore } from '@pinfold/adapter-memory'
import { chacha } from '@pinfold/testing/gateway'
import { startTestApi, type TestApi } from '@pinfold/testing/test-api'
import { b64, cidOf, createSdkStyle, patchAt } from '@pinfold/testing/tus'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runs } from './properties/support/round-trip.js'

const LEAF = 262_144
/** Links per file node in Kubo's balanced layout: files past 174 leaves have a second level. */
const WIDTH = 174

/**
 * A tus upload's DAG is built as its PATCHes arrive (only the open node of each level is kept
 * between them) and its leaves are indexed PATCH by PATCH. What the gateway serves of it must be
 * exactly what it serves of the same bytes sent in one request: the same CAR, byte for byte, and
 * every block of it on its own. The single request goes to a second server, so the tus upload is
 * never answered from the other's stored copy (uploads of one CID share one).
 */
describe('resumable uploads - the DAG built PATCH by PATCH', () => {
  let tus: TestApi
  let single: TestApi
  beforeAll(async () => {
    ;[tus, single] = await Promise.all([startTestApi(), startTestApi()])
  })
  afterAll(() => Promise.all([tus?.close(), single?.close()]))

  /** Pseudo-random bytes from a seed; `zeros` makes every leaf the same (one leaf block, repeated nodes). */
  const bytesOf = (size: number, seed: number, zeros: boolean) =>
    zeros ? new Uint8Array(size) : chacha(`tus-dag/${seed}`, size)

  async function uploadByTus(bytes: Uint8Array, cuts: number[]): Promise<string> {
    const created = await createSdkStyle(tus, bytes.length, `filename ${b64('dag.bin')},network ${b64('public')}`)
    expect(created.status).toBe(201)
    const location = created.headers.get('location')!
    const ends = [...new Set([...cuts.map((cut) => cut % bytes.length), bytes.length])]
      .filter((end) => end > 0)
      .sort((a, b) => a - b)
    let offset = 0
    let done: Response | undefined
    for (const end of ends) {
      done = await patchAt(tus, location, offset, bytes.subarray(offset, end))
      expect(done.status, await done.clone().text()).toBe(204)
      offset = end
    }
    return done!.headers.get('upload-cid')!
  }

  async function uploadInOneRequest(bytes: Uint8Array): Promise<string> {
    const body = new FormData()
    body.append('file', new Blob([bytes]), 'dag.bin')
    body.append('network', 'public')
    const res = await single.api('/v3/files', { method: 'POST', body })
    expect(res.status).toBe(200)
    return ((await res.json()) as { data: { cid: string } }).data.cid
  }

  /** Uploads `bytes` on the second server: the CID and CAR of the same bytes sent in one request. */
  async function oneRequestCar(bytes: Uint8Array) {
    const cid = await uploadInOneRequest(bytes)
    return { cid, car: await carOf(single, cid) }
  }

  const carOf = async (server: TestApi, cid: string) => {
    const res = await server.fetch(`${server.url}/ipfs/${cid}?format=car`)
    expect(res.status).toBe(200)
    return new Uint8Array(await res.arrayBuffer())
  }

  async function expectSameAsOneRequest(size: number, cuts: number[], seed: number, zeros: boolean) {
    const bytes = bytesOf(size, seed, zeros)
    const [viaTus, viaOne] = await Promise.all([uploadByTus(bytes, cuts), uploadInOneRequest(bytes)])
    expect(viaTus).toBe(viaOne)
    expect(viaTus).toBe(await cidOf(bytes))
    const car = await carOf(tus, viaTus)
    expect(Buffer.from(car).equals(Buffer.from(await carOf(single, viaOne)))).toBe(true)
    // every block, leaves of every PATCH included, is found through the block index on its own
    let blocks = 0
    for await (const { cid, bytes: block } of await CarBlockIterator.fromBytes(car)) {
      const raw = await tus.fetch(`${tus.url}/ipfs/${cid}?format=raw`)
      expect(raw.status, `${cid} of ${viaTus}`).toBe(200)
      expect(Buffer.from(await raw.arrayBuffer()).equals(Buffer.from(block))).toBe(true)
      blocks++
    }
    expect(blocks).toBeGreaterThan(0)
  }

  // A node of 174 leaves completes inside a PATCH, one PATCH ends on it, the root is that node,
  // or a second level begins with a node of one leaf.
  const edges: [string, number, number[]][] = [
    ['a full node, closed by the last PATCH', WIDTH * LEAF, [100 * LEAF + 5]],
    ['a full node whose last leaf ends a PATCH before the last', WIDTH * LEAF + 1, [WIDTH * LEAF]],
    ['one leaf short of a full node', WIDTH * LEAF - 1, [3 * LEAF, 90 * LEAF - 7]],
    ['one byte past a full node, in PATCHes of a few leaves', WIDTH * LEAF + 1, [1, 40 * LEAF, 173 * LEAF + 9]],
  ]
  for (const [name, size, cuts] of edges) {
    it(`${name} (${size} bytes): the same CAR and blocks as one request`, async () => {
      await expectSameAsOneRequest(size, cuts, size, false)
    }, 120_000)
  }

  it('any size up to 180 leaves, any PATCH cuts, random or repeated leaves: the same CAR and blocks as one request', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 180 * LEAF }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 5 }),
        fc.nat(),
        fc.boolean(),
        async (size, cuts, seed, zeros) => {
          await expectSameAsOneRequest(size, cuts, seed, zeros)
        },
      ),
      // a run sends up to 45 MiB twice
      { numRuns: runs(4), endOnFailure: true },
    )
  }, 300_000)

  it('two instances race PATCHes of different bytes at one offset: the winner counts, the loser leaves no frontier and no index entry', async () => {
    // two services over shared stores, as instances sharing PostgreSQL and S3
    const records = createMemoryRecordStore()
    const blobs = createMemoryBlobStore()
    const [a, b] = await Promise.all([startTestApi({ records, blobs }), startTestApi({ records, blobs })])
    try {
      const size = 200 * LEAF + 123
      const at = 150 * LEAF + 7
      const end = 190 * LEAF + 1
      const won = bytesOf(size, 1, false)
      const lost = bytesOf(size, 2, false)
      const created = await createSdkStyle(a, size, `filename ${b64('race.bin')},network ${b64('public')}`)
      const location = created.headers.get('location')!
      expect((await patchAt(a, location, 0, won.subarray(0, at))).status).toBe(204)
      // both bodies wait until both PATCHes have begun, so each has read the session at `at`
      let begun = 0
      let bothBegun: () => void = () => {}
      const barrier = new Promise<void>((resolve) => {
        bothBegun = resolve
      })
      const gated = (bytes: Uint8Array) =>
        new ReadableStream<Uint8Array>({
          async start(controller) {
            controller.enqueue(bytes.subarray(0, 1000))
            if (++begun === 2) bothBegun()
            await barrier
            controller.enqueue(bytes.subarray(1000))
            controller.close()
          },
        })
      const race = (server: TestApi, bytes: Uint8Array) =>
        server.fetch(location, {
          method: 'PATCH',
          headers: { 'Content-Type': 'application/offset+octet-stream', 'Upload-Offset': String(at) },
          body: gated(bytes.subarray(at, end)),
        })
      const answers = await Promise.all([race(a, won), race(b, lost)])
      const statuses = answers.map((res) => res.status).sort()
      expect(statuses).toEqual([204, 409])
      const winner = answers[0]!.status === 204 ? won : lost
      const loser = winner === won ? lost : won
      const final = new Uint8Array(size)
      final.set(won.subarray(0, at))
      final.set(winner.subarray(at, end), at)
      final.set(won.subarray(end), end)
      const done = await patchAt(b, location, end, final.subarray(end))
      expect(done.status).toBe(204)
      const cid = done.headers.get('upload-cid')!
      const expected = await oneRequestCar(final)
      expect(cid).toBe(expected.cid)
      expect(Buffer.from(await carOf(a, cid)).equals(Buffer.from(expected.car))).toBe(true)
      // a whole leaf of the losing bytes is no block of the stored file, on either instance
      const leafStart = Math.ceil(at / LEAF) * LEAF
      const losingLeaf = await cidOf(loser.subarray(leafStart, leafStart + LEAF))
      for (const server of [a, b]) {
        expect((await server.fetch(`${server.url}/ipfs/${losingLeaf}?format=raw`)).status).toBe(404)
      }
    } finally {
      await Promise.all([a.close(), b.close()])
    }
  }, 120_000)

  it('a session saved before the frontier existed (every digest in its parts, no staged.dag) completes with the same CAR', async () => {
    const records = createMemoryRecordStore()
    const blobs = createMemoryBlobStore()
    const server = await startTestApi({ records, blobs })
    try {
      const bytes = bytesOf(190 * LEAF + 77, 3, false)
      const firstEnd = 180 * LEAF + 5
      const created = await createSdkStyle(server, bytes.length, `filename ${b64('old.bin')},network ${b64('public')}`)
      const location = created.headers.get('location')!
      expect((await patchAt(server, location, 0, bytes.subarray(0, firstEnd))).status).toBe(204)
      // rewrite the session as the build before left it: its one part records the digests of the
      // 180 whole leaves it stored, and the staged write has no DAG state
      const id = new URL(location).pathname.split('/')[3]!
      const session = (await records.uploadSessions.deleteUploadSession(id))!
      const entry = JSON.parse(session.parts[0]!) as Record<string, unknown>
      const leaves = Array.from({ length: 180 }, (_, i) =>
        createHash('sha256')
          .update(bytes.subarray(i * LEAF, (i + 1) * LEAF))
          .digest(),
      )
      const legacy = { ...entry, leaves: Buffer.concat(leaves).toString('base64') }
      const { dag: _, ...staged } = session.staged!
      await records.uploadSessions.createUploadSession({ ...session, parts: [JSON.stringify(legacy)], staged })
      const done = await patchAt(server, location, firstEnd, bytes.subarray(firstEnd))
      expect(done.status).toBe(204)
      const expected = await oneRequestCar(bytes)
      expect(done.headers.get('upload-cid')).toBe(expected.cid)
      const car = await carOf(server, expected.cid)
      expect(Buffer.from(car).equals(Buffer.from(expected.car))).toBe(true)
      for await (const { cid } of await CarBlockIterator.fromBytes(car)) {
        expect((await server.fetch(`${server.url}/ipfs/${cid}?format=raw`)).status, `${cid}`).toBe(200)
      }
    } finally {
      await server.close()
    }
  }, 120_000)
})
