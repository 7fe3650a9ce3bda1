import { createMemoryBlobStore, createMemoryRecordStore } from '@pinfold/adapter-memory'
import { describe, expect, it } from 'vitest'
import type { BlobStore, FileService, RecordStore } from '../../src/index.js'
import { createFileService, UPLOAD_SESSION_TTL_MS } from '../../src/index.js'
import {
  alice,
  concat,
  createTestService,
  digest,
  patterned,
  streamOf,
  type TestClock,
  testClock,
} from '../support/test-service.js'

/**
 * A resumable upload's completion stopped for good at each of its steps, as a process killed there
 * leaves it: the store call that follows the step never returns. Another service over the same
 * stores (the restarted process) gets no answer from a bodiless PATCH at the final offset while the
 * dead completion's lease lasts, and completes the upload once it has run out: the CID of a
 * one-shot upload, exactly one file record, the bytes intact, nothing of the session left.
 */
const LEASE_MS = 5_000
const LEAF = 262_144

/**
 * A gate that holds back the call that reaches it, and every lease renewal from then on, until it
 * is opened (never, for a dead process: a killed process renews nothing).
 */
function gate() {
  let open!: () => void
  const opened = new Promise<void>((resolve) => {
    open = resolve
  })
  let reached!: () => void
  let halted = false
  const arrived = new Promise<void>((resolve) => {
    reached = resolve
  })
  return {
    /** Resolves once a call has reached the gate. */
    arrived,
    open,
    async pass() {
      halted = true
      reached()
      await opened
    },
    async renewal() {
      if (halted) await opened
    },
  }
}

type Step = 'claimed' | 'assembled' | 'dag-closed' | 'recorded'

/**
 * Stores that stop the completion just after `step`: at the store call that follows it (assembling
 * the staged blob, indexing the leaves, writing the file record, deleting the session).
 */
function stoppedAfter(
  step: Step,
  records: RecordStore,
  blobs: BlobStore & { staged: NonNullable<BlobStore['staged']> },
) {
  const halt = gate()
  let assembled = false
  const stoppedRecords: RecordStore = {
    ...records,
    uploadSessions: {
      ...records.uploadSessions,
      async renewUploadCompletion(...args) {
        await halt.renewal()
        return records.uploadSessions.renewUploadCompletion(...args)
      },
      async deleteUploadSession(...args) {
        if (step === 'recorded') await halt.pass()
        return records.uploadSessions.deleteUploadSession(...args)
      },
    },
    blocks: {
      ...records.blocks,
      async putBlockLocations(...args) {
        if (step === 'assembled' && assembled) await halt.pass()
        return records.blocks.putBlockLocations(...args)
      },
    },
    files: {
      ...records.files,
      async createFile(...args) {
        if (step === 'dag-closed') await halt.pass()
        return records.files.createFile(...args)
      },
    },
  }
  const stoppedBlobs: BlobStore = {
    ...blobs,
    staged: {
      ...blobs.staged,
      async complete(...args) {
        if (step === 'claimed') await halt.pass()
        const done = await blobs.staged.complete(...args)
        assembled = true
        return done
      },
    },
  }
  return { records: stoppedRecords, blobs: stoppedBlobs, halt }
}

/**
 * A record store whose file record waits at a gate (the completion runs on, renewing its lease, until
 * it opens); `renewed` hears each renewal's new expiry.
 */
function heldAtRecord(records: RecordStore, renewed: (until: Date) => void = () => {}) {
  const held = gate()
  const slow: RecordStore = {
    ...records,
    files: {
      ...records.files,
      async createFile(...args) {
        await held.pass()
        return records.files.createFile(...args)
      },
    },
    uploadSessions: {
      ...records.uploadSessions,
      async renewUploadCompletion(id, owner, until, options) {
        const kept = await records.uploadSessions.renewUploadCompletion(id, owner, until, options)
        renewed(until)
        return kept
      },
    },
  }
  return { held, records: slow }
}

function serviceOver(records: RecordStore, blobs: BlobStore, clock: TestClock): FileService {
  return createFileService({ records, blobs, clock, resumableUploads: { completionLeaseMs: LEASE_MS } })
}

async function oneShotCid(bytes: Uint8Array): Promise<string> {
  const { service } = createTestService()
  const items = (async function* () {
    yield { kind: 'file' as const, path: 'x.bin', content: streamOf(bytes) }
  })()
  return (await service.files.upload(alice, items)).file.cid
}

const empty = () => streamOf(new Uint8Array(0))

async function leftUnder(blobs: BlobStore, prefix: string): Promise<string[]> {
  const keys: string[] = []
  for await (const { key } of blobs.list!({ prefix })) keys.push(key)
  return keys
}

describe('a resumable upload whose completion died at a step', () => {
  it.each(['claimed', 'assembled', 'dag-closed', 'recorded'] as const)(
    'after "%s" - a bodiless PATCH after the lease completes it once, from what the dead one left',
    async (step) => {
      const clock = testClock()
      const records = createMemoryRecordStore()
      const blobs = createMemoryBlobStore()
      const stopped = stoppedAfter(step, records, blobs)
      const dead = serviceOver(stopped.records, stopped.blobs, clock)
      const bytes = patterned(3 * LEAF + 777, 5)
      const upload = await dead.uploads.create(alice, {
        length: bytes.length,
        fileName: 'crash.bin',
        options: { network: 'public' },
      })
      await dead.uploads.append(upload.id, upload.token, 0, streamOf(bytes.subarray(0, LEAF + 3)))
      void dead.uploads.append(upload.id, upload.token, LEAF + 3, streamOf(bytes.subarray(LEAF + 3)))
      await stopped.halt.arrived

      const restarted = serviceOver(records, blobs, clock)
      expect(await restarted.uploads.status(upload.id, upload.token)).toMatchObject({ offset: bytes.length })
      // the dead completion's lease still runs: a retry is acknowledged without a result
      clock.advance(LEASE_MS - 1)
      expect((await restarted.uploads.append(upload.id, upload.token, bytes.length, empty())).result).toBeUndefined()
      clock.advance(1)
      const retried = await restarted.uploads.append(upload.id, upload.token, bytes.length, empty())
      const file = retried.result?.file
      expect(file?.cid).toBe(await oneShotCid(bytes))
      expect(file).toMatchObject({ name: 'crash.bin', network: 'public', size: bytes.length })

      const listed = await restarted.files.list(alice, 'public')
      expect(listed.files.map((f) => f.id)).toEqual([file!.id])
      const content = await records.files.getContent(file!.cid)
      expect(digest(await concat(await blobs.get(content!.blobKey)))).toBe(digest(bytes))
      await expect(restarted.uploads.status(upload.id, upload.token)).rejects.toMatchObject({ code: 'NOT_FOUND' })
      expect(await leftUnder(blobs, 'tus/')).toEqual([])
    },
  )

  it('after "recorded", on a store without staged writes - the retry answers the same record and makes no second', async () => {
    const clock = testClock()
    const records = createMemoryRecordStore()
    const { staged: _, ...plain } = createMemoryBlobStore()
    const halt = gate()
    const stopped: RecordStore = {
      ...records,
      uploadSessions: {
        ...records.uploadSessions,
        async renewUploadCompletion(...args) {
          await halt.renewal()
          return records.uploadSessions.renewUploadCompletion(...args)
        },
        async deleteUploadSession(...args) {
          await halt.pass()
          return records.uploadSessions.deleteUploadSession(...args)
        },
      },
    }
    const dead = serviceOver(stopped, plain, clock)
    const bytes = patterned(2 * LEAF + 10, 9)
    const upload = await dead.uploads.create(alice, { length: bytes.length, options: { network: 'private' } })
    void dead.uploads.append(upload.id, upload.token, 0, streamOf(bytes))
    await halt.arrived
    const written = (await records.files.listFiles(alice.tenantId, 'private', {}, { limit: 10, order: 'ASC' })).items
    expect(written).toHaveLength(1)

    clock.advance(LEASE_MS)
    const restarted = serviceOver(records, plain, clock)
    const retried = await restarted.uploads.append(upload.id, upload.token, bytes.length, empty())
    expect(retried.result?.file).toMatchObject({ id: written[0]!.id, cid: written[0]!.cid })
    expect((await restarted.files.list(alice, 'private')).files.map((f) => f.id)).toEqual([written[0]!.id])
    // the retry's own copy of the bytes went: only the recorded blob (and its DAG index) is left
    expect(await leftUnder(plain, 'tus/')).toEqual([])
    const { blobKey } = (await records.files.getContent(written[0]!.cid))!
    expect((await leftUnder(plain, 'blobs/')).filter((key) => !key.startsWith(blobKey))).toEqual([])
  })

  it('a completion that outlives its lease and resumes after a takeover makes no second record', async () => {
    const clock = testClock()
    const records = createMemoryRecordStore()
    const blobs = createMemoryBlobStore()
    const stopped = stoppedAfter('dag-closed', records, blobs)
    const slow = serviceOver(stopped.records, stopped.blobs, clock)
    const bytes = patterned(2 * LEAF + 99, 21)
    const upload = await slow.uploads.create(alice, { length: bytes.length, options: { network: 'public' } })
    const first = slow.uploads.append(upload.id, upload.token, 0, streamOf(bytes))
    await stopped.halt.arrived
    // stalled past its lease (no renewal reached the store): another instance takes over and completes
    clock.advance(LEASE_MS + 1)
    const other = serviceOver(records, blobs, clock)
    const taken = await other.uploads.append(upload.id, upload.token, bytes.length, empty())
    expect(taken.result?.file.cid).toBe(await oneShotCid(bytes))
    // the stalled one wakes up: whatever it answers, the upload has one record
    stopped.halt.open()
    const late = await first.then(
      (answer) => answer.result?.file.id,
      (error: unknown) => error,
    )
    // it was past its last look at the claim: it finds the record made and answers it
    expect(late).toBe(taken.result?.file.id)
    expect((await other.files.list(alice, 'public')).files.map((f) => f.id)).toEqual([taken.result!.file.id])
  })

  it('a completion that runs longer than its lease renews it: no retry takes it over meanwhile', async () => {
    const clock = testClock()
    const records = createMemoryRecordStore()
    const blobs = createMemoryBlobStore()
    const renewals: Date[] = []
    let renewed = () => {}
    const { held, records: slow } = heldAtRecord(records, (until) => {
      renewals.push(until)
      renewed()
    })
    const working = serviceOver(slow, blobs, clock)
    const bytes = patterned(LEAF + 5, 33)
    const upload = await working.uploads.create(alice, { length: bytes.length, options: { network: 'public' } })
    const first = working.uploads.append(upload.id, upload.token, 0, streamOf(bytes))
    await held.arrived
    // the claim was taken at the start, until START + LEASE_MS; time passes while the record waits
    clock.advance(LEASE_MS - 1)
    const start = clock.now().getTime() - (LEASE_MS - 1)
    await new Promise<void>((resolve) => {
      renewed = () => {
        if (renewals.some((until) => until.getTime() > start + LEASE_MS)) resolve()
      }
    })
    clock.advance(2) // past the lease the claim began with: only the renewal keeps it
    const other = serviceOver(records, blobs, clock)
    const retry = await other.uploads.append(upload.id, upload.token, bytes.length, empty())
    expect(retry.result).toBeUndefined()
    held.open()
    const done = await first
    expect(done.result?.file.cid).toBe(await oneShotCid(bytes))
    expect((await other.files.list(alice, 'public')).files.map((f) => f.id)).toEqual([done.result!.file.id])
  })

  it('sweepExpiredSessions - leaves a session whose completion is running under a live lease; the bytes stay whole', async () => {
    const clock = testClock()
    const records = createMemoryRecordStore()
    const blobs = createMemoryBlobStore()
    let renewed = () => {}
    const { held, records: slow } = heldAtRecord(records, () => renewed())
    const working = serviceOver(slow, blobs, clock)
    const bytes = patterned(2 * LEAF + 1, 41)
    const upload = await working.uploads.create(alice, { length: bytes.length, options: { network: 'public' } })
    const completing = working.uploads.append(upload.id, upload.token, 0, streamOf(bytes))
    await held.arrived
    // the session's lifetime ends while its completion runs (a retry made just before it ended)
    clock.advance(UPLOAD_SESSION_TTL_MS)
    await new Promise<void>((resolve) => {
      renewed = resolve
    })
    const sweeper = serviceOver(records, blobs, clock)
    expect(await sweeper.uploads.sweepExpiredSessions()).toBe(0)
    held.open()
    const done = (await completing).result!
    const content = await records.files.getContent(done.file.cid)
    expect(digest(await concat(await blobs.get(content!.blobKey)))).toBe(digest(bytes))
    // the completion deleted its session: nothing is left to sweep
    expect(await sweeper.uploads.sweepExpiredSessions()).toBe(0)
  })

  it('terminate - refused while a completion holds a live lease; the completion records the bytes whole', async () => {
    const clock = testClock()
    const records = createMemoryRecordStore()
    const blobs = createMemoryBlobStore()
    const { held, records: slow } = heldAtRecord(records)
    const working = serviceOver(slow, blobs, clock)
    const bytes = patterned(2 * LEAF + 3, 43)
    const upload = await working.uploads.create(alice, { length: bytes.length, options: { network: 'public' } })
    const completing = working.uploads.append(upload.id, upload.token, 0, streamOf(bytes))
    await held.arrived
    const other = serviceOver(records, blobs, clock)
    await expect(other.uploads.terminate(upload.id, upload.token)).rejects.toMatchObject({ code: 'CONFLICT' })
    held.open()
    const done = (await completing).result!
    const content = await records.files.getContent(done.file.cid)
    expect(digest(await concat(await blobs.get(content!.blobKey)))).toBe(digest(bytes))
  })

  it('terminate - a session at its length whose completion died is terminated once the lease ran out', async () => {
    const clock = testClock()
    const records = createMemoryRecordStore()
    const blobs = createMemoryBlobStore()
    const stopped = stoppedAfter('claimed', records, blobs)
    const dead = serviceOver(stopped.records, stopped.blobs, clock)
    const bytes = patterned(LEAF + 9, 47)
    const upload = await dead.uploads.create(alice, { length: bytes.length, options: { network: 'public' } })
    void dead.uploads.append(upload.id, upload.token, 0, streamOf(bytes))
    await stopped.halt.arrived
    clock.advance(LEASE_MS)
    const restarted = serviceOver(records, blobs, clock)
    await restarted.uploads.terminate(upload.id, upload.token)
    await expect(restarted.uploads.status(upload.id, upload.token)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    expect(await leftUnder(blobs, 'tus/')).toEqual([])
  })
})
