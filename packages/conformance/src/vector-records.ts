import { randomUUID } from 'node:crypto'
import type {
  ContentRecord,
  FileRecord,
  GroupRecord,
  Network,
  NewFile,
  RecordStore,
  VectorEmbedding,
  VectorQuery,
} from '@pinfold/interface'
import { describe, expect, it } from 'vitest'
import { freshHarnessPerTest } from './fresh-harness-per-test.js'
import type { RecordStoreHarness } from './record-store.js'

const TENANT = 'tenant-a'
const OTHER_TENANT = 'tenant-b'
const DIMENSIONS = 8
const EMBEDDER: VectorEmbedding = { embedderId: 'conformance-embedder@1', dimensions: DIMENSIONS }

/** A vector pointing mostly along `axis`, tilted towards `axis + 1` by `tilt` (0 … 1). */
function axis(index: number, tilt = 0): Float32Array {
  const vector = new Float32Array(DIMENSIONS)
  vector[index % DIMENSIONS] = 1 - tilt
  vector[(index + 1) % DIMENSIONS] = tilt
  return vector
}

/** The cosine similarity the store must report, computed the plain way. */
function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0
  let na = 0
  let nb = 0
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!
    na += a[i]! * a[i]!
    nb += b[i]! * b[i]!
  }
  return dot / Math.sqrt(na * nb)
}

/**
 * The VectorRecordStore contract (see `VectorRecordStore` in @pinfold/interface), run by
 * `describeRecordStore`. Stores declaring `capabilities.vectors` run every test; the others must
 * reject vector calls with `UNAVAILABLE` (one test proves it, the rest are reported as skipped).
 */
export function describeVectorRecords(name: string, create: () => Promise<RecordStoreHarness>): void {
  describe(`VectorRecordStore conformance: ${name}`, () => {
    let h: RecordStoreHarness
    let store: RecordStore
    freshHarnessPerTest(create, (next) => {
      h = next
      store = next.store
    })

    /** Runs `body` when the store declares vectors; otherwise reports the test as skipped. */
    const vectorTest = (title: string, body: () => Promise<void>) =>
      it(title, async (ctx) => {
        if (!h.capabilities?.vectors) {
          ctx.skip()
          return
        }
        await body()
      })

    async function addGroup(fields: Partial<GroupRecord> = {}): Promise<GroupRecord> {
      return store.groups.createGroup({
        id: randomUUID(),
        tenantId: TENANT,
        network: 'private',
        name: 'docs',
        isPublic: false,
        createdAt: new Date(Date.UTC(2026, 0, 1)),
        ...fields,
      })
    }

    async function addFile(fields: Partial<NewFile> = {}): Promise<FileRecord> {
      const file: NewFile = {
        id: randomUUID(),
        tenantId: TENANT,
        userId: 'user-1',
        network: 'private',
        name: 'notes.txt',
        cid: `bafkrei${randomUUID().replaceAll('-', '')}`,
        size: 10,
        numberOfFiles: 1,
        mimeType: 'text/plain',
        groupId: null,
        keyvalues: {},
        createdAt: new Date(Date.UTC(2026, 0, 1)),
        expiresAt: null,
        ...fields,
      }
      const content: ContentRecord = {
        cid: file.cid,
        blobKey: `blobs/${randomUUID()}`,
        size: 10,
        kind: 'file',
        profile: 'v1',
      }
      return (await store.files.createFile(file, content)).file
    }

    const upsert = (file: FileRecord, vectors: Float32Array[], embedding = EMBEDDER) =>
      store.vectors.upsertFileVectors(file.tenantId, file.network, file.id, embedding, vectors)

    const query = (groupId: string, vector: Float32Array, fields: Partial<VectorQuery> = {}, embedding = EMBEDDER) =>
      store.vectors.queryVectors(
        { tenantId: TENANT, network: 'private', groupId, vector, limit: 20, ...fields },
        embedding,
      )

    const matchIds = async (groupId: string, vector: Float32Array, fields: Partial<VectorQuery> = {}) =>
      (await query(groupId, vector, fields)).map((match) => match.fileId)

    async function expectVectorCount(count: number): Promise<void> {
      if (h.probe?.countVectors) expect(await h.probe.countVectors()).toBe(count)
    }

    it('vector methods - answer when the capability is declared, else reject with UNAVAILABLE', async () => {
      if (h.capabilities?.vectors) {
        expect(await store.vectors.getVectorEmbedding()).toBeUndefined()
        return
      }
      const file = await addFile()
      const calls: [string, () => Promise<unknown>][] = [
        ['upsertFileVectors', () => upsert(file, [axis(0)])],
        ['deleteFileVectors', () => store.vectors.deleteFileVectors(TENANT, 'private', file.id)],
        ['queryVectors', () => query(randomUUID(), axis(0))],
        ['getVectorEmbedding', () => store.vectors.getVectorEmbedding()],
        ['resetVectorIndex', () => store.vectors.resetVectorIndex()],
      ]
      for (const [method, call] of calls) {
        await expect(call(), method).rejects.toMatchObject({ code: 'UNAVAILABLE', message: expect.any(String) })
      }
    })

    describe('upsertFileVectors', () => {
      vectorTest('upsertFileVectors - stores the vectors and marks the file vectorized', async () => {
        const group = await addGroup()
        const file = await addFile({ groupId: group.id })
        const updated = await upsert(file, [axis(0), axis(3)])
        expect(updated).toEqual({ ...file, vectorized: true })
        expect(await store.files.getFile(TENANT, 'private', file.id)).toEqual({ ...file, vectorized: true })
        const matches = await query(group.id, axis(3))
        expect(matches).toEqual([{ fileId: file.id, cid: file.cid, score: expect.any(Number) }])
        expect(matches[0]!.score).toBeCloseTo(1, 5)
        await expectVectorCount(2)
      })

      vectorTest('upsertFileVectors - records the first embedder', async () => {
        expect(await store.vectors.getVectorEmbedding()).toBeUndefined()
        await upsert(await addFile(), [axis(0)])
        expect(await store.vectors.getVectorEmbedding()).toEqual(EMBEDDER)
      })

      vectorTest('upsertFileVectors - replaces the previous vectors, so re-vectorizing is idempotent', async () => {
        const group = await addGroup()
        const file = await addFile({ groupId: group.id })
        await upsert(file, [axis(0), axis(1), axis(2)])
        await upsert(file, [axis(5)])
        await upsert(file, [axis(5)])
        await expectVectorCount(1)
        const [match] = await query(group.id, axis(0))
        expect(match?.score).toBeCloseTo(0, 5)
        expect((await query(group.id, axis(5)))[0]?.score).toBeCloseTo(1, 5)
      })

      vectorTest('upsertFileVectors - concurrent upserts of one file leave exactly one set', async () => {
        const group = await addGroup()
        const file = await addFile({ groupId: group.id })
        const sets = [0, 1, 2, 3, 4].map((n) => Array.from({ length: n + 1 }, () => axis(n)))
        await Promise.all(sets.map((vectors) => upsert(file, vectors)))
        const scores = await Promise.all(sets.map(async (_, n) => (await query(group.id, axis(n)))[0]!.score))
        const exact = scores.flatMap((score, n) => (Math.abs(score - 1) < 1e-5 ? [n] : []))
        expect(exact).toHaveLength(1)
        await expectVectorCount(exact[0]! + 1)
      })

      vectorTest(
        'upsertFileVectors - maxVectorizedFiles: of 6 concurrent upserts at the limit less one exactly one is stored; a re-vectorize always fits',
        async () => {
          const limit = 3
          const done = [await addFile(), await addFile()]
          for (const file of done) await upsert(file, [axis(0)])
          await upsert(await addFile({ tenantId: OTHER_TENANT }), [axis(1)]) // another tenant's count apart
          const racing = await Promise.all([0, 1, 2, 3, 4, 5].map(() => addFile()))
          const results = await Promise.allSettled(
            racing.map((file) =>
              store.vectors.upsertFileVectors(TENANT, 'private', file.id, EMBEDDER, [axis(2)], {
                maxVectorizedFiles: limit,
              }),
            ),
          )
          expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1)
          for (const refused of results.filter((r) => r.status === 'rejected')) {
            expect(refused.reason).toMatchObject({
              code: 'QUOTA_EXCEEDED',
              message: `vectorized file limit reached: the account may vectorize ${limit} files`,
            })
          }
          expect(await store.accounts.vectorizedFiles(TENANT)).toBe(limit)
          // a file already vectorized takes no more room
          const again = await store.vectors.upsertFileVectors(TENANT, 'private', done[0]!.id, EMBEDDER, [axis(3)], {
            maxVectorizedFiles: limit,
          })
          expect(again?.vectorized).toBe(true)
          await expectVectorCount(limit + 1)
        },
      )

      vectorTest(
        'upsertFileVectors - a missing file or one of another tenant or network answers undefined',
        async () => {
          const mine = await addFile()
          const theirs = await addFile({ tenantId: OTHER_TENANT })
          expect(
            await store.vectors.upsertFileVectors(TENANT, 'private', randomUUID(), EMBEDDER, [axis(0)]),
          ).toBeUndefined()
          expect(
            await store.vectors.upsertFileVectors(TENANT, 'private', 'not-a-uuid', EMBEDDER, [axis(0)]),
          ).toBeUndefined()
          expect(
            await store.vectors.upsertFileVectors(TENANT, 'private', theirs.id, EMBEDDER, [axis(0)]),
          ).toBeUndefined()
          expect(await store.vectors.upsertFileVectors(TENANT, 'public', mine.id, EMBEDDER, [axis(0)])).toBeUndefined()
          expect((await store.files.getFile(OTHER_TENANT, 'private', theirs.id))?.vectorized).toBe(false)
          await expectVectorCount(0)
        },
      )

      vectorTest(
        'upsertFileVectors - a vector of the wrong size, non-finite or all zeros is INVALID_INPUT',
        async () => {
          const file = await addFile()
          const bad = [new Float32Array(DIMENSIONS - 1).fill(1), new Float32Array(DIMENSIONS), axis(0).fill(Number.NaN)]
          for (const vector of bad) {
            await expect(upsert(file, [axis(1), vector])).rejects.toMatchObject({ code: 'INVALID_INPUT' })
          }
          expect((await store.files.getFile(TENANT, 'private', file.id))?.vectorized).toBe(false)
          await expectVectorCount(0)
        },
      )

      vectorTest('upsertFileVectors - another embedder id or dimension count is a CONFLICT naming both', async () => {
        const group = await addGroup()
        const file = await addFile({ groupId: group.id })
        await upsert(file, [axis(0)])
        const other = await addFile({ groupId: group.id })
        const otherId = { embedderId: 'another-embedder@2', dimensions: DIMENSIONS }
        const otherSize = { embedderId: EMBEDDER.embedderId, dimensions: DIMENSIONS + 1 }
        await expect(upsert(other, [axis(0)], otherId)).rejects.toMatchObject({
          code: 'CONFLICT',
          message: expect.stringMatching(/conformance-embedder@1[\s\S]*another-embedder@2/),
        })
        await expect(upsert(other, [new Float32Array(DIMENSIONS + 1).fill(1)], otherSize)).rejects.toMatchObject({
          code: 'CONFLICT',
          message: expect.stringMatching(/8 dimensions[\s\S]*9 dimensions/),
        })
        await expect(query(group.id, axis(0), {}, otherId)).rejects.toMatchObject({ code: 'CONFLICT' })
        expect((await store.files.getFile(TENANT, 'private', other.id))?.vectorized).toBe(false)
        expect(await store.vectors.getVectorEmbedding()).toEqual(EMBEDDER)
        await expectVectorCount(1)
      })

      vectorTest(
        'upsertFileVectors - of concurrent first upserts with different embedders exactly one wins',
        async () => {
          const files = await Promise.all([addFile(), addFile(), addFile()])
          const embedders = files.map((_, i) => ({ embedderId: `embedder-${i}`, dimensions: DIMENSIONS }))
          const results = await Promise.allSettled(files.map((file, i) => upsert(file, [axis(i)], embedders[i])))
          const won = results.flatMap((result, i) => (result.status === 'fulfilled' ? [i] : []))
          expect(won).toHaveLength(1)
          for (const result of results) {
            if (result.status === 'rejected') expect(result.reason).toMatchObject({ code: 'CONFLICT' })
          }
          expect(await store.vectors.getVectorEmbedding()).toEqual(embedders[won[0]!])
        },
      )

      vectorTest('upsertFileVectors - no vectors marks the file vectorized with nothing to find', async () => {
        const group = await addGroup()
        const file = await addFile({ groupId: group.id })
        expect((await upsert(file, []))?.vectorized).toBe(true)
        expect(await query(group.id, axis(0))).toEqual([])
      })
    })

    describe('deleteFileVectors', () => {
      vectorTest('deleteFileVectors - removes the vectors and clears vectorized, idempotently', async () => {
        const group = await addGroup()
        const file = await addFile({ groupId: group.id })
        const kept = await addFile({ groupId: group.id })
        await upsert(file, [axis(0), axis(1)])
        await upsert(kept, [axis(2)])
        expect(await store.vectors.deleteFileVectors(TENANT, 'private', file.id)).toEqual({
          ...file,
          vectorized: false,
        })
        expect(await store.vectors.deleteFileVectors(TENANT, 'private', file.id)).toEqual({
          ...file,
          vectorized: false,
        })
        expect(await matchIds(group.id, axis(0))).toEqual([kept.id])
        await expectVectorCount(1)
      })

      vectorTest('deleteFileVectors - a missing file or one of another tenant answers undefined', async () => {
        const group = await addGroup({ tenantId: OTHER_TENANT })
        const theirs = await addFile({ tenantId: OTHER_TENANT, groupId: group.id })
        await upsert(theirs, [axis(0)])
        expect(await store.vectors.deleteFileVectors(TENANT, 'private', theirs.id)).toBeUndefined()
        expect(await store.vectors.deleteFileVectors(TENANT, 'private', randomUUID())).toBeUndefined()
        expect(await store.vectors.deleteFileVectors(TENANT, 'private', 'not-a-uuid')).toBeUndefined()
        const matches = await query(group.id, axis(0), { tenantId: OTHER_TENANT })
        expect(matches.map((m) => m.fileId)).toEqual([theirs.id])
      })
    })

    describe('queryVectors', () => {
      vectorTest("queryVectors - ranks files by their best passage's cosine similarity, best first", async () => {
        const group = await addGroup()
        const near = await addFile({ groupId: group.id })
        const middle = await addFile({ groupId: group.id })
        const far = await addFile({ groupId: group.id })
        await upsert(far, [axis(4), axis(0, 0.9)])
        await upsert(near, [axis(6), axis(0, 0.1), axis(5)])
        await upsert(middle, [axis(0, 0.5)])
        const q = axis(0)
        const matches = await query(group.id, q)
        expect(matches.map((m) => m.fileId)).toEqual([near.id, middle.id, far.id])
        expect(matches.map((m) => m.cid)).toEqual([near.cid, middle.cid, far.cid])
        expect(matches[0]!.score).toBeCloseTo(cosine(q, axis(0, 0.1)), 5)
        expect(matches[1]!.score).toBeCloseTo(cosine(q, axis(0, 0.5)), 5)
        expect(matches[2]!.score).toBeCloseTo(cosine(q, axis(0, 0.9)), 5)
      })

      vectorTest('queryVectors - scores are cosine similarities whatever the vector lengths', async () => {
        const group = await addGroup()
        const file = await addFile({ groupId: group.id })
        const long = axis(0, 0.3).map((value) => value * 7)
        await upsert(file, [long])
        const [match] = await query(
          group.id,
          axis(0).map((value) => value * 0.2),
        )
        expect(match!.score).toBeCloseTo(cosine(axis(0), axis(0, 0.3)), 5)
      })

      vectorTest('queryVectors - returns at most limit files and breaks ties by file id', async () => {
        const group = await addGroup()
        const files = await Promise.all(Array.from({ length: 25 }, () => addFile({ groupId: group.id })))
        for (const file of files) await upsert(file, [axis(0)])
        const expected = files.map((file) => file.id).sort()
        expect(await matchIds(group.id, axis(0))).toEqual(expected.slice(0, 20))
        expect(await matchIds(group.id, axis(0), { limit: 3 })).toEqual(expected.slice(0, 3))
      })

      vectorTest('queryVectors - filters by group before ranking', async () => {
        const small = await addGroup()
        const big = await addGroup()
        const lonely = await addFile({ groupId: small.id })
        await upsert(lonely, [axis(3)])
        for (let i = 0; i < 30; i++) await upsert(await addFile({ groupId: big.id }), [axis(0, i / 100)])
        const ungrouped = await addFile()
        await upsert(ungrouped, [axis(0)])
        const matches = await query(small.id, axis(0), { limit: 5 })
        expect(matches).toEqual([{ fileId: lonely.id, cid: lonely.cid, score: expect.any(Number) }])
        expect(matches[0]!.score).toBeCloseTo(0, 5)
        expect(await query(big.id, axis(0), { limit: 20 })).toHaveLength(20)
      })

      vectorTest("queryVectors - tenants and networks never see each other's vectors", async () => {
        const mine = await addGroup()
        const theirs = await addGroup({ tenantId: OTHER_TENANT })
        const publicGroup = await addGroup({ network: 'public' })
        const myFile = await addFile({ groupId: mine.id })
        const theirFile = await addFile({ tenantId: OTHER_TENANT, groupId: theirs.id })
        const publicFile = await addFile({ network: 'public', groupId: publicGroup.id })
        for (const file of [myFile, theirFile, publicFile]) await upsert(file, [axis(0)])
        expect(await matchIds(theirs.id, axis(0))).toEqual([])
        expect(await matchIds(mine.id, axis(0), { tenantId: OTHER_TENANT })).toEqual([])
        expect(await matchIds(mine.id, axis(0), { network: 'public' as Network })).toEqual([])
        expect(await matchIds(publicGroup.id, axis(0))).toEqual([])
        expect(await matchIds(publicGroup.id, axis(0), { network: 'public' })).toEqual([publicFile.id])
        expect(await matchIds(theirs.id, axis(0), { tenantId: OTHER_TENANT })).toEqual([theirFile.id])
        expect(await matchIds(mine.id, axis(0))).toEqual([myFile.id])
      })

      vectorTest('queryVectors - an unknown group, or a store with no embedder yet, answers []', async () => {
        const group = await addGroup()
        await addFile({ groupId: group.id })
        expect(await query(group.id, axis(0))).toEqual([])
        await upsert(await addFile({ groupId: group.id }), [axis(0)])
        expect(await query(randomUUID(), axis(0))).toEqual([])
        expect(await query('not-a-uuid', axis(0))).toEqual([])
      })

      vectorTest('queryVectors - a query vector of the wrong size is INVALID_INPUT', async () => {
        const group = await addGroup()
        await upsert(await addFile({ groupId: group.id }), [axis(0)])
        await expect(query(group.id, new Float32Array(DIMENSIONS))).rejects.toMatchObject({ code: 'INVALID_INPUT' })
        await expect(query(group.id, new Float32Array(3).fill(1))).rejects.toMatchObject({ code: 'INVALID_INPUT' })
      })
    })

    describe('consistency with files', () => {
      vectorTest('deleteFile - removes the vectors with the file', async () => {
        const group = await addGroup()
        const file = await addFile({ groupId: group.id })
        const kept = await addFile({ groupId: group.id })
        await upsert(file, [axis(0), axis(1)])
        await upsert(kept, [axis(5)])
        await store.files.deleteFile(TENANT, 'private', file.id)
        expect(await matchIds(group.id, axis(0))).toEqual([kept.id])
        await expectVectorCount(1)
      })

      vectorTest('updateFile - moving a file to another group moves its vectors', async () => {
        const from = await addGroup()
        const to = await addGroup()
        const file = await addFile({ groupId: from.id })
        await upsert(file, [axis(0)])
        await store.files.updateFile(TENANT, 'private', file.id, { groupId: to.id })
        expect(await matchIds(from.id, axis(0))).toEqual([])
        expect(await matchIds(to.id, axis(0))).toEqual([file.id])
        expect((await store.files.getFile(TENANT, 'private', file.id))?.vectorized).toBe(true)
      })

      vectorTest('updateFile - a file taken out of its group, or whose group is deleted, is not found', async () => {
        const group = await addGroup()
        const removed = await addFile({ groupId: group.id })
        const orphaned = await addFile({ groupId: group.id })
        await upsert(removed, [axis(0)])
        await upsert(orphaned, [axis(0)])
        await store.files.updateFile(TENANT, 'private', removed.id, { groupId: null })
        expect(await matchIds(group.id, axis(0))).toEqual([orphaned.id])
        await store.groups.deleteGroup(TENANT, 'private', group.id)
        expect(await matchIds(group.id, axis(0))).toEqual([])
        // back in a group, the file's vectors count again
        const again = await addGroup()
        await store.files.updateFile(TENANT, 'private', removed.id, { groupId: again.id })
        expect(await matchIds(again.id, axis(0))).toEqual([removed.id])
      })
    })

    describe('resetVectorIndex', () => {
      vectorTest('resetVectorIndex - deletes every vector and lets another embedder in', async () => {
        const group = await addGroup()
        const file = await addFile({ groupId: group.id })
        const theirs = await addFile({ tenantId: OTHER_TENANT })
        await upsert(file, [axis(0)])
        await upsert(theirs, [axis(1)])
        await store.vectors.resetVectorIndex()
        expect(await store.vectors.getVectorEmbedding()).toBeUndefined()
        expect((await store.files.getFile(TENANT, 'private', file.id))?.vectorized).toBe(false)
        expect((await store.files.getFile(OTHER_TENANT, 'private', theirs.id))?.vectorized).toBe(false)
        await expectVectorCount(0)
        const other = { embedderId: 'another-embedder@2', dimensions: 3 }
        await upsert(file, [new Float32Array([1, 0, 0])], other)
        const matches = await query(group.id, new Float32Array([1, 0, 0]), {}, other)
        expect(matches.map((m) => m.fileId)).toEqual([file.id])
      })
    })

    vectorTest('vector methods - an aborted signal rejects with ABORTED and changes nothing', async () => {
      const group = await addGroup()
      const file = await addFile({ groupId: group.id })
      await upsert(file, [axis(0)])
      const signal = AbortSignal.abort()
      const q: VectorQuery = { tenantId: TENANT, network: 'private', groupId: group.id, vector: axis(0), limit: 5 }
      const calls: [string, () => Promise<unknown>][] = [
        [
          'upsertFileVectors',
          () => store.vectors.upsertFileVectors(TENANT, 'private', file.id, EMBEDDER, [axis(4)], { signal }),
        ],
        ['deleteFileVectors', () => store.vectors.deleteFileVectors(TENANT, 'private', file.id, { signal })],
        ['queryVectors', () => store.vectors.queryVectors(q, EMBEDDER, { signal })],
        ['getVectorEmbedding', () => store.vectors.getVectorEmbedding({ signal })],
        ['resetVectorIndex', () => store.vectors.resetVectorIndex({ signal })],
      ]
      for (const [method, call] of calls) {
        await expect(call(), method).rejects.toMatchObject({ code: 'ABORTED' })
      }
      const [match] = await query(group.id, axis(0))
      expect(match?.score).toBeCloseTo(1, 5)
      await expectVectorCount(1)
    })
  })
}
