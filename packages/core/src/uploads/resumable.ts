import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto'
import type { CallOptions, SessionStagedWrite, StagedBlobWrites, UploadSessionRecord } from '@pinfold/interface'
import { conflict, hasCode, invalid, notFound, PinfoldError, throwIfAborted } from '@pinfold/interface'
import type { Block } from '../content/dag/blocks.js'
import { deleteContentBlobs } from '../content/dag/car-blob.js'
import { StagedDag } from '../content/staging/staged-dag.js'
import {
  appendStagedPatch,
  parseEntry,
  partStart,
  STAGED_LEAF_BYTES,
  type StagedEntry,
} from '../content/staging/staged-parts.js'
import type { UploadItem, UploadResult } from '../files/api.js'
import type { FileUpload } from '../files/upload.js'
import { SNIFF_BYTES } from '../mime/mime.js'
import { admitFile } from '../quotas/admission.js'
import type { ServiceContext } from '../service/context.js'
import { meter } from '../streams/meter.js'
import type { TenantOperations } from '../tenants/api.js'
import type { UploadOperations } from './api.js'
import { holdCompletionLease } from './completion-lease.js'
import { sessionBlobKeys } from './session-blobs.js'
import {
  checkOptions,
  fromSessionConstraints,
  fromSessionOptions,
  indexesLeaves,
  plainFileName,
  toSessionConstraints,
  toSessionOptions,
} from './session-options.js'

/** What resumable uploads use of the service; a completed session is recorded through `files.upload`'s steps. */
export interface ResumableUploadOperationSettings
  extends Pick<
    ServiceContext,
    'records' | 'blobs' | 'clock' | 'ids' | 'maxUploadBytes' | 'resumable' | 'quotaDefaults'
  > {
  upload: FileUpload
  /** The tenant registry's check: a suspended tenant's sessions are refused as its tokens are. */
  admit: TenantOperations['admit']
}

/** How long a session lives after its creation or its last accepted PATCH. */
export const UPLOAD_SESSION_TTL_MS = 24 * 60 * 60 * 1000

/**
 * Resumable uploads (tus 1.0 core + creation + termination), transport-free. Each accepted PATCH
 * is stored, then advances the session's offset with a compare-and-set, so of two PATCHes at one
 * offset exactly one counts; a PATCH that fails midway leaves no change (the client resumes from
 * the offset HEAD reports). The PATCH that reaches the announced length claims the completion
 * (exactly once, see `claimUploadCompletion`) and records the file: CIDs, dedupe, `is_duplicate`
 * and signed-URL constraints are exactly those of a multipart upload.
 *
 * The claim is a lease (`completion-lease.ts`), renewed while the completion runs: a process that
 * dies mid-completion leaves it to run out, and the client's retry (a bodiless PATCH at the final
 * offset) then takes the completion over, on any instance. Each step of a completion can be done
 * again, and the file record's id is the session's, so a retry after any step — the claim taken,
 * the blob assembled, the DAG closed, even the record written — answers the same CID and file id
 * with exactly one record.
 *
 * Where the blob store has staged writes (memory, filesystem, S3), the session's bytes go into one
 * staged blob as they arrive, each PATCH hashing its 256 KiB leaves on the way
 * (`content/staging/staged-parts.ts`), adding them to the CIDv1 DAG (`content/staging/staged-dag.ts`:
 * only the open node of each level is kept) and indexing the leaves of the PATCH before it; the completion assembles the blob in the store,
 * closes the DAG and indexes its file nodes and its own leaves: it reads 4 KiB back (type
 * sniffing), and its work does not grow with the file. Everything it needs is in the session
 * record and the store, so a restart or another instance finishes the same way.
 * Options that need other leaves (`cid_version` v0, a CAR upload) read the assembled blob once, as
 * a multipart upload with those options does. Without staged writes, each PATCH is a blob of its
 * own and the completion streams them, in order, through the ordinary upload pipeline.
 */
export function createResumableUploadOperations(
  ctx: ResumableUploadOperationSettings,
): Omit<UploadOperations, 'signed'> {
  const { upload } = ctx
  const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex')

  async function mustGet(id: string, token: string, options?: CallOptions): Promise<UploadSessionRecord> {
    const session = await ctx.records.uploadSessions.getUploadSession(id, options)
    // one answer for "absent", "wrong token" and "expired": a session URL is a capability
    const given = Buffer.from(tokenHash(token), 'hex')
    const valid =
      session !== undefined &&
      given.length === 32 &&
      timingSafeEqual(given, Buffer.from(session.tokenHash, 'hex')) &&
      session.expiresAt.getTime() > ctx.clock.now().getTime()
    if (!valid) throw notFound('upload')
    // the session URL is a capability the tenant holds: refused, like its tokens, while it is suspended
    await ctx.admit({ tenantId: session.tenantId, userId: session.userId }, options)
    return session
  }

  /**
   * The official SDK retries a chunk at the same offset without asking HEAD; when the first try
   * was stored but its answer lost, the retry resends exactly the last accepted part. That resend
   * (same start, same length) is acknowledged without storing it again.
   */
  async function isRetryOfLastPart(
    session: UploadSessionRecord,
    offset: number,
    body: AsyncIterable<Uint8Array>,
  ): Promise<boolean> {
    const last = session.parts.at(-1)
    const start = last === undefined ? undefined : partStart(last)
    if (start !== offset) return false
    const expected = session.offset - offset
    let received = 0
    for await (const chunk of body) {
      received += chunk.length
      if (received > expected) return false
    }
    return received === expected
  }

  async function deleteParts(parts: readonly string[], options?: CallOptions) {
    await Promise.all(parts.map((key) => ctx.blobs.delete(key, options).catch(() => {})))
  }

  /** The store's staged writes, which a session begun with them needs to go on. */
  function stagedWrites(): StagedBlobWrites {
    if (!ctx.blobs.staged) {
      throw new PinfoldError(
        'UNAVAILABLE',
        'this upload was begun on a blob store with staged writes; this one has none',
      )
    }
    return ctx.blobs.staged
  }

  /** Deletes what a finished or abandoned session stored, except a blob a file record now owns. */
  async function dropSessionBytes(session: UploadSessionRecord, options?: CallOptions) {
    if (!session.staged) return deleteParts(session.parts, options)
    const { key, handle } = session.staged
    await deleteParts(sessionBlobKeys(session), options)
    await ctx.blobs.staged?.abort(key, handle, options).catch(() => {})
    // cannot tell: keeping an orphan is recoverable, losing bytes is not
    const owned = await ctx.records.files.isBlobReferenced(key, options).catch(() => true)
    if (!owned) {
      await deleteContentBlobs(ctx.blobs, key, options).catch(() => {})
      // the leaves its PATCHes indexed (invisible while no record owns the blob)
      await ctx.records.blocks.deleteBlockLocations(key, options).catch(() => {})
    }
  }

  /**
   * PATCHes of one session take turns in this process: a staged write takes one part at a time,
   * and a PATCH must see the offset the previous one left before it writes at it.
   */
  const turns = new Map<string, Promise<unknown>>()
  async function inTurn<T>(id: string, run: () => Promise<T>): Promise<T> {
    const mine = (turns.get(id) ?? Promise.resolve()).catch(() => {}).then(run)
    const settled = mine.catch(() => {})
    turns.set(id, settled)
    try {
      return await mine
    } finally {
      if (turns.get(id) === settled) turns.delete(id)
    }
  }

  async function* concatenate(parts: readonly string[], signal: AbortSignal | undefined): AsyncGenerator<Uint8Array> {
    for (const key of parts) yield* await ctx.blobs.get(key, { signal })
  }

  /** Completes a staged session: assembles its blob in the store and records it from its leaf digests. */
  async function finishStaged(
    session: UploadSessionRecord,
    staged: SessionStagedWrite,
    signal: AbortSignal | undefined,
  ): Promise<UploadResult> {
    const entries = session.parts.map(parseEntry)
    const { key, handle } = staged
    // a retried completion finds the blob assembled already
    const size =
      (await ctx.blobs.head(key, { signal }))?.size ??
      (
        await stagedWrites().complete(
          key,
          handle,
          entries.flatMap((e) => (e.part === null ? [] : [e.part])),
          { signal },
        )
      ).size
    if (size !== session.length) {
      throw new PinfoldError('INTERNAL', `the staged blob holds ${size} bytes, the upload ${session.length}`)
    }
    await ctx.resumable.checkpoint?.('assembled', session.id)
    const dag = StagedDag.open(staged, entries, STAGED_LEAF_BYTES)
    const { root, nodes } = dag.close()
    const indexed = indexesLeaves(session)
    if (indexed) {
      const leaves = dag.leafLocations(STAGED_LEAF_BYTES, size, true, root)
      await ctx.records.blocks.putBlockLocations(key, leaves, { signal })
    }
    const innerNodes: Block[] = []
    for await (const node of dag.savedNodeBlocks(ctx.blobs, { signal })) innerNodes.push(node)
    innerNodes.push(...nodes)
    const head = await readHead(key, size, signal)
    await ctx.resumable.checkpoint?.('dag-closed', session.id)
    const result = await upload.commitStored(
      session.id,
      { tenantId: session.tenantId, userId: session.userId },
      {
        blobKey: key,
        size,
        head,
        path: plainFileName(session.fileName),
        mimeType: session.mimeType ?? undefined,
        cidV1: root.toString(),
        innerNodes,
        leavesIndexed: indexed,
      },
      { name: session.fileName, ...fromSessionOptions(session.options) },
      { constraints: fromSessionConstraints(session.constraints), signal },
    )
    await ctx.resumable.checkpoint?.('recorded', session.id)
    const deleted = await ctx.records.uploadSessions.deleteUploadSession(session.id).catch(() => undefined)
    if (deleted) await dropSessionBytes(deleted)
    return result
  }

  async function readHead(key: string, size: number, signal: AbortSignal | undefined): Promise<Uint8Array> {
    const pieces: Uint8Array[] = []
    const range = { offset: 0, length: Math.min(SNIFF_BYTES, size) }
    for await (const piece of await ctx.blobs.get(key, { signal, range })) {
      pieces.push(piece)
    }
    return Buffer.concat(pieces)
  }

  async function finish(session: UploadSessionRecord, signal: AbortSignal | undefined): Promise<UploadResult> {
    if (session.staged) return finishStaged(session, session.staged, signal)
    const options = fromSessionOptions(session.options)
    const items: UploadItem[] = [
      { kind: 'options', options: { name: session.fileName, ...options } },
      // the name is an option; the path only needs to be a plain file name (a `/` would mean a folder)
      {
        kind: 'file',
        path: plainFileName(session.fileName),
        mimeType: session.mimeType ?? undefined,
        content: concatenate(session.parts, signal),
      },
    ]
    const result = await upload.uploadAs(
      session.id,
      { tenantId: session.tenantId, userId: session.userId },
      toAsync(items),
      { signal, constraints: fromSessionConstraints(session.constraints) },
    )
    await ctx.resumable.checkpoint?.('recorded', session.id)
    const deleted = await ctx.records.uploadSessions.deleteUploadSession(session.id).catch(() => undefined)
    if (deleted) await deleteParts(deleted.parts)
    return result
  }

  /**
   * Stores a PATCH's bytes and advances the session: `undefined` when the body was empty (nothing
   * changes), else the advanced session. The part is removed again when the advance fails.
   */
  async function store(
    session: UploadSessionRecord,
    offset: number,
    body: AsyncIterable<Uint8Array>,
    owner: string,
    options: CallOptions,
  ): Promise<UploadSessionRecord | undefined> {
    const { signal } = options
    const metered = meter(body, { maxBytes: session.length - offset, headSize: 0, signal })
    let stored: {
      part: string
      size: number
      staged?: SessionStagedWrite
      drop: () => Promise<void>
      replaced?: () => Promise<void>
    }
    if (session.staged) {
      const rest = await nonEmpty(metered.stream)
      if (!rest) return undefined
      const entries = session.parts.map(parseEntry)
      const previous = entries.at(-1)
      const carryKey = `tus/${session.id}/carry-${offset}-${ctx.ids.recordId()}`
      const nodesKey = `tus/${session.id}/nodes-${offset}-${ctx.ids.recordId()}`
      const storedBefore = entries.reduce((sum, e) => sum + e.stored, 0)
      const dag = StagedDag.open(session.staged, entries, STAGED_LEAF_BYTES)
      let entry: StagedEntry
      try {
        // the last accepted PATCH's leaves, indexed while this one streams
        const indexing = indexesLeaves(session)
          ? ctx.records.blocks.putBlockLocations(
              session.staged.key,
              dag.leafLocations(STAGED_LEAF_BYTES, session.length, false),
              options,
            )
          : Promise.resolve()
        const [appended, indexed] = await Promise.allSettled([
          appendStagedPatch(
            ctx.blobs,
            stagedWrites(),
            session.staged,
            previous,
            storedBefore,
            offset,
            rest,
            (received) => offset + received === session.length,
            carryKey,
            options,
          ),
          indexing,
        ])
        if (appended.status === 'rejected') throw appended.reason
        if (indexed.status === 'rejected') throw indexed.reason
        entry = appended.value.entry
        dag.addLeaves(storedBefore, appended.value.digests, (i) =>
          Math.min(STAGED_LEAF_BYTES, session.length - storedBefore - i * STAGED_LEAF_BYTES),
        )
        await dag.saveNodes(ctx.blobs, nodesKey, options)
      } catch (error) {
        await Promise.all([ctx.blobs.delete(carryKey).catch(() => {}), ctx.blobs.delete(nodesKey).catch(() => {})])
        throw error
      }
      stored = {
        part: JSON.stringify(entry),
        size: metered.meter.bytes,
        staged: { ...session.staged, dag: dag.serialize() },
        // a part appended but not recorded is replaced by the next one at this offset, or aborted with the write
        drop: async () => {
          await ctx.blobs.delete(carryKey).catch(() => {})
          if (dag.written) await ctx.blobs.delete(dag.written).catch(() => {})
        },
        replaced: async () => {
          if (previous?.carry) await ctx.blobs.delete(previous.carry.key).catch(() => {})
          if (dag.superseded) await ctx.blobs.delete(dag.superseded).catch(() => {})
        },
      }
    } else {
      const key = `tus/${session.id}/${offset}-${ctx.ids.recordId()}`
      const drop = () => ctx.blobs.delete(key).catch(() => {})
      let size: number
      try {
        size = (await ctx.blobs.put(key, metered.stream, { signal })).size
      } catch (error) {
        await drop()
        throw error
      }
      if (size === 0) {
        await drop()
        return undefined
      }
      stored = { part: key, size, drop }
    }
    const now = ctx.clock.now().getTime()
    const advanced = await ctx.records.uploadSessions
      .advanceUploadSession(
        session.id,
        offset,
        {
          offset: offset + stored.size,
          part: stored.part,
          expiresAt: new Date(now + UPLOAD_SESSION_TTL_MS),
          staged: stored.staged,
          completion: { owner, expiresAt: new Date(now + ctx.resumable.completionLeaseMs) },
        },
        options,
      )
      .catch(async (error: unknown) => {
        await stored.drop()
        throw error
      })
    if (!advanced) {
      await stored.drop()
      throw conflict(`another request already wrote at offset ${offset}`)
    }
    await stored.replaced?.()
    return advanced
  }

  return {
    async create(actor, request, options) {
      const { length } = request
      if (!Number.isSafeInteger(length) || length < 0) throw invalid('Upload-Length must be a non-negative integer')
      const max = Math.min(ctx.maxUploadBytes, request.constraints?.maxBytes ?? Number.POSITIVE_INFINITY)
      if (length > max) throw new PinfoldError('PAYLOAD_TOO_LARGE', `upload exceeds the limit of ${max} bytes`)
      // Upload-Length is known: the tenant's limits refuse now, before any byte is sent
      await admitFile(ctx, actor.tenantId, length, options)
      const now = ctx.clock.now()
      // Options the completion would refuse are refused now, before any byte is sent; a blank
      // file name is no name, as for multipart uploads.
      checkOptions(request.options, now)
      const fileName = [request.fileName, request.options.name].find((name) => name?.trim()) ?? 'file'
      const id = ctx.ids.recordId()
      const token = randomBytes(32).toString('base64url')
      const expiresAt = new Date(now.getTime() + UPLOAD_SESSION_TTL_MS)
      let staged: SessionStagedWrite | null = null
      if (ctx.blobs.staged) {
        // A content blob's key, named after the session: its bytes are invisible until the
        // completion assembles them, which a commit then follows; a completion that died after
        // assembling leaves the blob, owned by no content yet, to the session's retry, and the
        // orphan sweep keeps it while the session named by its key lives (`maintenance/maintenance.ts`).
        const key = `blobs/${id}`
        staged = { key, handle: await ctx.blobs.staged.begin(key, options) }
      }
      const record: UploadSessionRecord = {
        id,
        tokenHash: tokenHash(token),
        tenantId: actor.tenantId,
        userId: actor.userId,
        length,
        offset: 0,
        parts: [],
        fileName,
        mimeType: request.mimeType || null,
        options: toSessionOptions(request.options),
        constraints: request.constraints ? toSessionConstraints(request.constraints) : null,
        staged,
        createdAt: now,
        expiresAt,
      }
      try {
        await ctx.records.uploadSessions.createUploadSession(record, options)
      } catch (error) {
        await dropSessionBytes(record).catch(() => {})
        throw error
      }
      return { id, token, length, expiresAt }
    },

    async status(id, token, options) {
      const session = await mustGet(id, token, options)
      return { offset: session.offset, length: session.length, expiresAt: session.expiresAt }
    },

    /**
     * A PATCH at the final offset with an empty body retries the completion of an upload whose
     * earlier completion failed. Of the PATCHes at the final offset, only the one holding the
     * completion claim records the upload (`result`).
     */
    async append(id, token, offset, body, options = {}) {
      const { signal } = options
      // this PATCH's claim on the completion, should it take it
      const owner = `completion-${randomUUID()}`
      const written = await inTurn(id, async () => {
        const session = await mustGet(id, token, options)
        if (offset !== session.offset) {
          if (await isRetryOfLastPart(session, offset, body)) return { session, current: session, retry: true }
          throw conflict(`Upload-Offset ${offset} does not match the upload's offset ${session.offset}`)
        }
        if (session.offset < session.length) {
          return { session, current: (await store(session, offset, body, owner, options)) ?? session, retry: false }
        }
        for await (const chunk of body) {
          if (chunk.length > 0) throw new PinfoldError('PAYLOAD_TOO_LARGE', 'the upload is already complete')
        }
        return { session, current: session, retry: false }
      })
      const { session, current } = written
      if (written.retry || (current === session && session.offset < session.length)) {
        return { offset: session.offset, length: session.length, expiresAt: session.expiresAt }
      }
      const status = { offset: current.offset, length: current.length, expiresAt: current.expiresAt }
      if (current.offset < current.length) return status
      throwIfAborted(signal)
      // Every PATCH at the final offset gets here; only the claim's holder records the upload, the
      // others are acknowledged at the final offset (tus 204) without a result. The PATCH whose
      // advance reached the length holds the claim already; a bodiless one may take over a claim
      // a failed completion gave back, or one whose lease ran out (its process died).
      const { completionLeaseMs } = ctx.resumable
      const holdsClaim =
        current !== session ||
        (await ctx.records.uploadSessions.claimUploadCompletion(
          id,
          owner,
          ctx.clock.now(),
          completionLeaseMs,
          options,
        )) === 'claimed'
      if (!holdsClaim) return status
      const lease = holdCompletionLease(ctx, id, owner, signal)
      try {
        await ctx.resumable.checkpoint?.('claimed', id)
        return { ...status, result: await finish(current, lease.signal) }
      } catch (error) {
        // taken over after a stall: the new holder completes the upload, this PATCH is one without the claim
        if (lease.lost) return status
        if (hasCode(error, 'QUOTA_EXCEEDED')) {
          // no retry can succeed until the tenant frees room: the session and its bytes go, as if terminated
          const deleted = await ctx.records.uploadSessions.deleteUploadSession(id).catch(() => undefined)
          if (deleted) await dropSessionBytes(deleted)
          throw error
        }
        // without the caller's signal: it may be the abort that failed the completion
        await ctx.records.uploadSessions.releaseUploadCompletion(id, owner).catch(() => {})
        throw error
      } finally {
        lease.stop()
      }
    },

    async terminate(id, token, options) {
      const session = await mustGet(id, token, options)
      // A session at its length may be completing: like the sweep, termination takes the completion
      // claim first, so it never deletes the bytes under a completion that holds a live lease.
      if (session.offset === session.length) {
        const terminator = `terminate-${randomUUID()}`
        const { completionLeaseMs } = ctx.resumable
        const claim = await ctx.records.uploadSessions.claimUploadCompletion(
          id,
          terminator,
          ctx.clock.now(),
          completionLeaseMs,
          options,
        )
        if (claim !== 'claimed') throw conflict('the upload is being completed; it cannot be terminated now')
      }
      const deleted = await ctx.records.uploadSessions.deleteUploadSession(id, options)
      if (deleted) await dropSessionBytes(deleted, options)
    },

    async sweepExpiredSessions(now = ctx.clock.now(), options) {
      // The sweep takes a session's completion claim before deleting it: a completion still
      // running (its lease live) keeps its session and bytes until it ends, and none starts after.
      const sweeper = `sweep-${randomUUID()}`
      let swept = 0
      for (;;) {
        const expired = await ctx.records.uploadSessions.listExpiredUploadSessions(now, 100, options)
        let progressed = false
        for (const session of expired) {
          const { completionLeaseMs } = ctx.resumable
          const claim = await ctx.records.uploadSessions.claimUploadCompletion(
            session.id,
            sweeper,
            now,
            completionLeaseMs,
            options,
          )
          if (claim !== 'claimed') continue
          const deleted = await ctx.records.uploadSessions.deleteUploadSession(session.id, options)
          if (!deleted) continue
          progressed = true
          swept++
          await dropSessionBytes(deleted, options)
        }
        if (expired.length < 100 || !progressed) return swept
      }
    },
  }
}

async function* toAsync<T>(items: readonly T[]): AsyncGenerator<T> {
  yield* items
}

/** The stream from its first non-empty chunk on, or `undefined` when it holds no byte. */
async function nonEmpty(source: AsyncIterable<Uint8Array>): Promise<AsyncIterable<Uint8Array> | undefined> {
  const iterator = source[Symbol.asyncIterator]()
  for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
    const first = next.value
    if (first.length > 0)
      return (async function* () {
        yield first
        for (let more = await iterator.next(); !more.done; more = await iterator.next()) yield more.value
      })()
  }
  return undefined
}
