import type {
  BlockLocation,
  ContentRecord,
  FileQuota,
  LocatedBlock,
  NewEvent,
  PinOutcome,
  PinRequestRecord,
} from '@pinfold/interface'
import { hasCode, throwIfAborted } from '@pinfold/interface'
import { CID } from 'multiformats/cid'
import { blockLinks } from '../content/dag/blocks.js'
import { createCarBlobWriter, deleteContentBlobs, readAll } from '../content/dag/car-blob.js'
import { readBlock } from '../content/dag/read-block.js'
import { blockedBy, contentBlockedFacts } from '../events/content-blocked.js'
import { fileFacts, pinFacts, systemEvent } from '../events/new-event.js'
import { DIRECTORY_MIME_TYPE } from '../mime/allowed-mime-types.js'
import { detectMimeType, SNIFF_BYTES } from '../mime/mime.js'
import { admitFile } from '../quotas/admission.js'
import type { ServiceContext } from '../service/context.js'
import type { TenantOperations } from '../tenants/api.js'
import { deletePinFile } from './delete-pin-file.js'
import { DagFetchFailure, fetchDag } from './fetch-dag.js'
import { type FetchedShape, fetchedShape } from './fetched-shape.js'

/** What a pin job uses of the service, and the tenant registry's suspended tenants. */
export type PinJobSettings = Pick<
  ServiceContext,
  'records' | 'blobs' | 'clock' | 'ids' | 'pinning' | 'blockFetchers' | 'quotaDefaults' | 'deny'
> &
  Pick<TenantOperations, 'suspendedTenants'>

/** Why a job's own controller stopped it; anything else that aborts it is its caller shutting down. */
export const STOP = {
  timedOut: Symbol('pin job timed out'),
  /** The request was deleted, or its lease was lost to another worker: neither is this job's to end. */
  gone: Symbol('pin request gone'),
  /** Its tenant was suspended: the request goes back to the queue, where it waits for a resume. */
  suspended: Symbol('tenant suspended'),
} as const

const DAG_CBOR_MIME_TYPE = 'application/vnd.ipld.dag-cbor'

/**
 * Runs one claimed request to its end: the DAG is fetched and stored as a `car` content (or, when
 * public content here has this very CID, that content is used as it is), the file record is made
 * with the request's id, name, group and keyvalues on the public network, and the request is
 * finished `pinned`, or `failed` with its reason. `controller` stops it: with {@link STOP}
 * reasons from the job's own timers and deletions, or any other reason when the process shuts down,
 * in which case the request goes back to the queue. The lease is renewed while it runs, and at
 * each renewal a job whose tenant an operator suspended meanwhile stops and goes back to the queue
 * (the claims pass it over until the tenant is resumed); one that gets to its file record first finishes.
 */
export async function runPinJob(
  ctx: PinJobSettings,
  request: PinRequestRecord,
  owner: string,
  controller: AbortController,
): Promise<void> {
  const { signal } = controller
  const settings = ctx.pinning
  const timeout = setTimeout(() => controller.abort(STOP.timedOut), settings.jobTimeoutMs)
  const renewal = setInterval(() => {
    const until = new Date(ctx.clock.now().getTime() + settings.leaseMs)
    ctx.records.pinRequests.renewPinLease(request.id, owner, until).then(
      (held) => held || controller.abort(STOP.gone),
      () => {}, // a store hiccup: the next renewal tries again, the lease covers two more periods
    )
    ctx.suspendedTenants().then(
      (suspended) => suspended.includes(request.tenantId) && controller.abort(STOP.suspended),
      () => {}, // asked again at the next renewal
    )
  }, settings.leaseMs / 3)
  const finish = async (outcome: PinOutcome, more: NewEvent[] = []) => {
    // a replacement ends its original either way: its file was kept only until now
    if (request.replaces) await deletePinFile(ctx, request.tenantId, request.replaces)
    const facts =
      outcome.state === 'pinned'
        ? pinFacts('pin.pinned', request, { dagSize: outcome.dagSize })
        : pinFacts('pin.failed', request, { failure: outcome.failure, reason: outcome.reason })
    return ctx.records.pinRequests.finishPinRequest(request.id, owner, outcome, {
      events: [systemEvent(request.tenantId, facts, 'pin-job'), ...more],
    })
  }
  let blobKey: string | undefined
  try {
    if (request.attempts > settings.maxAttempts) {
      await finish({
        state: 'failed',
        failure: 'timed_out',
        reason: `gave up after ${settings.maxAttempts} attempts, each cut short (its process stopped, or a store failed)`,
      })
      return
    }
    const root = CID.parse(request.cid)
    // the tenant's limits as the job starts: the fetch stops at what they leave, and the record is
    // checked against them atomically (another upload may land meanwhile)
    const admission = await admitFile(ctx, request.tenantId, undefined, { signal })
    let dagSize = 0
    /** Makes the file, unless the request was deleted meanwhile; answers the blob key backing it. */
    const makeFile = async (content: ContentRecord, shape: FileShape, reused: boolean) => {
      // the last moment to learn the request was deleted before a file appears
      const until = new Date(ctx.clock.now().getTime() + settings.leaseMs)
      if (!(await ctx.records.pinRequests.renewPinLease(request.id, owner, until))) controller.abort(STOP.gone)
      throwIfAborted(signal)
      const blobKey = await createPinnedFile(ctx, request, content, shape, reused, admission.quota)
      dagSize = shape.size
      return blobKey
    }
    const held = await heldPublicContent(ctx, root, request.cid)
    let made = false
    if (held) {
      try {
        await makeFile(held.content, await heldShape(ctx, held, root, request.name), true)
        made = true
      } catch (error) {
        // its last file was deleted meanwhile, and its blob goes with it: fetched like any CID
        if (signal.aborted || !hasCode(error, 'NOT_FOUND')) throw error
      }
    }
    if (!made) {
      blobKey = ctx.ids.blobKey()
      const fetched = await fetchAndStore(ctx, request, root, blobKey, signal, admission.maxBytes)
      const shape = await fileShape(fetched.shape, fetched.dagSize, request.name)
      if ((await makeFile(fetched.content, shape, false)) !== blobKey) await discard(ctx, blobKey)
      blobKey = undefined
    }
    if (
      !(await finish({ state: 'pinned', dagSize })) &&
      !(await ctx.records.pinRequests.getPinRequest(request.tenantId, request.id))
    ) {
      // deleted while the file was being made: the deletion wins
      await deletePinFile(ctx, request.tenantId, request.id)
    }
  } catch (error) {
    await discard(ctx, blobKey)
    if (signal.reason === STOP.gone) return
    if (signal.reason === STOP.suspended) {
      await ctx.records.pinRequests.releasePinRequest(request.id, owner).catch(() => {})
      return
    }
    if (signal.reason === STOP.timedOut) {
      await finish({ state: 'failed', failure: 'timed_out', reason: `not done within ${settings.jobTimeoutMs} ms` })
      return
    }
    if (error instanceof DagFetchFailure) {
      // a block of the DAG is on a deny list: the tenant is told which, with the failure
      const blocked = blockedBy(error.cause)
      const more = blocked
        ? [
            systemEvent(
              request.tenantId,
              contentBlockedFacts(blocked.cid, blocked, 'pin', { pinRequestId: request.id, root: request.cid }),
              'pin-job',
            ),
          ]
        : []
      await finish({ state: 'failed', failure: error.failure, reason: error.message }, more)
      return
    }
    if (hasCode(error, 'QUOTA_EXCEEDED') || hasCode(error, 'PAYLOAD_TOO_LARGE')) {
      // the tenant's limits leave no room for this DAG (Pinata's over_free_limit, kept as too large)
      await finish({ state: 'failed', failure: 'too_large', reason: (error as Error).message })
      return
    }
    // shutting down (stopped, not failed: uncounted), or a store failed (counted, so a request that
    // keeps failing is given up after maxAttempts): back to the queue for the next claimer
    await ctx.records.pinRequests.releasePinRequest(request.id, owner, { attempted: !signal.aborted }).catch(() => {})
    if (!signal.aborted) throw error
  } finally {
    clearTimeout(timeout)
    clearInterval(renewal)
    controller.abort(STOP.gone) // stops fetches still in flight after a failure
  }
}

async function fetchAndStore(
  ctx: PinJobSettings,
  request: PinRequestRecord,
  root: CID,
  blobKey: string,
  signal: AbortSignal,
  quotaBytes: number,
): Promise<{ content: ContentRecord; shape: FetchedShape; dagSize: number }> {
  const settings = { ...ctx.pinning, maxBytes: Math.min(ctx.pinning.maxBytes, quotaBytes) }
  const writer = createCarBlobWriter(ctx.blobs, blobKey, root, { signal })
  let shape: FetchedShape
  try {
    shape = await fetchDag(root, ctx.blockFetchers, writer, settings, {
      signal,
      hostNodes: request.hostNodes,
      refusal: (cid) => ctx.deny.refusalOf(cid, 'pin'),
    })
  } catch (error) {
    await writer.abort(error)
    throw error
  }
  const written = await writer.close()
  const rootHash = Buffer.from(root.multihash.bytes)
  const locations: BlockLocation[] = written.locations.map((location) => ({
    ...location,
    isRoot: rootHash.equals(location.multihash),
  }))
  await ctx.records.blocks.putBlockLocations(blobKey, locations, { signal })
  return {
    content: { cid: request.cid, blobKey, size: written.size, kind: 'car', profile: null },
    shape,
    dagSize: written.dagSize,
  }
}

/**
 * Public content here whose record has this CID, spelt the same: its blocks are served to anyone
 * already, so a new file may share it without fetching. Private content is never reused (knowing
 * a CID must not be enough to obtain someone's private bytes), nor content kept under another
 * spelling of the CID (a second content record would claim the same blob).
 */
async function heldPublicContent(ctx: PinJobSettings, root: CID, cid: string): Promise<LocatedBlock | undefined> {
  const located = await ctx.records.blocks.findPublicBlock(root.multihash.bytes, { at: ctx.clock.now() })
  return located?.location.isRoot && located.content.cid === cid ? located : undefined
}

interface FileShape {
  size: number
  numberOfFiles: number
  mimeType: string
}

async function fileShape(
  shape: FetchedShape,
  size: number,
  name: string,
  numberOfFiles = shape.files,
): Promise<FileShape> {
  if (shape.kind === 'directory') return { size, numberOfFiles, mimeType: DIRECTORY_MIME_TYPE }
  if (shape.kind === 'file')
    return { size, numberOfFiles: 1, mimeType: await detectMimeType(shape.head, undefined, name) }
  return { size, numberOfFiles: 1, mimeType: DAG_CBOR_MIME_TYPE }
}

/**
 * The shape of reused content, from its root block alone (reading the whole DAG would undo the
 * point of reusing it): a directory counts its top-level entries; a file content's MIME type is
 * sniffed from its blob's first bytes. Its size is the stored blob's.
 */
async function heldShape(ctx: PinJobSettings, held: LocatedBlock, root: CID, name: string): Promise<FileShape> {
  const { content, location } = held
  const bytes = await readBlock(ctx.blobs, content.blobKey, location)
  const links = blockLinks(root, bytes).length
  const shape = fetchedShape()
  shape.observe(root, bytes, 'root', links)
  if (content.kind === 'file') {
    const head = await readAll(await ctx.blobs.get(content.blobKey, { range: { offset: 0, length: SNIFF_BYTES } }))
    return { size: content.size, numberOfFiles: 1, mimeType: await detectMimeType(head, undefined, name) }
  }
  return fileShape(shape, content.size, name, links)
}

/**
 * Makes the file record and returns the blob key of the content that backs it; `reused` content
 * (held here already) must still be held, else `NOT_FOUND`. The record has the request's id, so a job resumed after a crash that came after the record was made finds it
 * (`CONFLICT`) instead of making a second one. A group deleted since the
 * request was queued leaves the file in no group, as deleting a group does to its files.
 */
async function createPinnedFile(
  ctx: PinJobSettings,
  request: PinRequestRecord,
  content: ContentRecord,
  shape: FileShape,
  reused: boolean,
  quota: FileQuota | undefined,
): Promise<string | undefined> {
  const file = {
    id: request.id,
    tenantId: request.tenantId,
    userId: request.userId,
    network: 'public' as const,
    name: request.name,
    cid: request.cid,
    size: shape.size,
    numberOfFiles: shape.numberOfFiles,
    mimeType: shape.mimeType,
    groupId: request.groupId,
    keyvalues: request.keyvalues,
    createdAt: ctx.clock.now(),
    expiresAt: null,
  }
  try {
    // reused content is only referenced, never recreated: a file on a blob being deleted would be
    // listed while the gateway answers 404
    const facts = fileFacts('file.created', file)
    const events = [
      systemEvent(file.tenantId, { ...facts, data: { ...facts.data, pinRequestId: request.id } }, 'pin-job'),
    ]
    const options = { requireContent: reused, quota, events }
    const created = await ctx.records.files.createFile(file, content, options).catch((error: unknown) => {
      if (!hasCode(error, 'NOT_FOUND') || file.groupId === null) throw error
      return ctx.records.files.createFile({ ...file, groupId: null }, content, options)
    })
    return created.content.blobKey
  } catch (error) {
    if (!hasCode(error, 'CONFLICT')) throw error
    const earlier = await ctx.records.files.getFile(request.tenantId, 'public', request.id)
    if (!earlier) throw error
    return (await ctx.records.files.getContent(earlier.cid))?.blobKey
  }
}

/** Removes a fetched blob no record owns, with its index entries. */
async function discard(ctx: PinJobSettings, blobKey: string | undefined): Promise<void> {
  if (!blobKey) return
  if ((await ctx.records.files.isBlobReferenced(blobKey).catch(() => true)) === true) return
  await deleteContentBlobs(ctx.blobs, blobKey)
  await ctx.records.blocks.deleteBlockLocations(blobKey).catch(() => {})
}
