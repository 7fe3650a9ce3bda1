import type {
  Actor,
  BlockedNotice,
  BlockLocation,
  CidVersion,
  CreatedFile,
  FileQuota,
  Network,
  NewFile,
} from '@pinfold/interface'
import { hasCode, throwIfAborted } from '@pinfold/interface'
import { CID } from 'multiformats/cid'
import type { Block } from '../content/dag/blocks.js'
import { fileBlockLocations } from '../content/dag/file-blocks.js'
import { importFileDag, sidecarLocations, writeFileDagIndex } from '../content/dag/file-dag-index.js'
import { contentBlockedFacts } from '../events/content-blocked.js'
import { fileFacts, tenantEvent } from '../events/new-event.js'
import type { ServiceContext } from '../service/context.js'
import type { UploadOptions, UploadResult } from './api.js'
import { discardStaged, type Staged } from './upload-staging.js'

/**
 * The second half of `files.upload`: a staged content's blocks indexed and its file record
 * created, under one rule — bytes are durable before their record commits, and a failed commit
 * leaves neither (unless a record turns out to own the blob after all).
 */

/** What committing uses of the service. */
export type CommitSettings = Pick<ServiceContext, 'blobs' | 'records' | 'ids' | 'clock' | 'deny'>

/**
 * Records the staged content, under `fileId` when given (else a new id), keeping the tenant within
 * `quota` (checked atomically with the record). Owns the staged blobs from here on: deletes them
 * unless a record uses them.
 */
export async function commitStaged(
  ctx: CommitSettings,
  actor: Actor,
  staged: Staged,
  options: UploadOptions,
  signal: AbortSignal | undefined,
  fileId: string | undefined,
  quota: FileQuota | undefined,
): Promise<UploadResult> {
  let cid: string | undefined
  try {
    const dag = await dagOf(ctx, staged, options.cidVersion, signal)
    cid = dag.cid
    await indexBlocks(ctx, staged, cid, dag.innerNodes, signal)
    throwIfAborted(signal)
    // no signal from here: a commit aborted midway could have happened without its caller knowing
    const file: NewFile = {
      id: fileId ?? ctx.ids.recordId(),
      tenantId: actor.tenantId,
      userId: actor.userId,
      network: options.network,
      name: options.name,
      cid,
      size: staged.size,
      numberOfFiles: staged.numberOfFiles,
      mimeType: staged.mimeType,
      groupId: options.groupId,
      keyvalues: options.keyvalues,
      createdAt: ctx.clock.now(),
      expiresAt: options.expiresAt,
    }
    const created = await ctx.records.files
      .createFile(
        file,
        {
          cid,
          blobKey: staged.blobKey,
          size: staged.blobSize,
          kind: staged.kind,
          profile: staged.kind === 'file' ? options.cidVersion : null,
        },
        {
          quota,
          events: [tenantEvent(actor, fileFacts('file.created', file))],
          blockedNotices: blockedOnArrival(ctx, actor, file),
        },
      )
      .catch((error: unknown) => recordedBefore(ctx, error, actor, options.network, fileId))
    if (created.content.blobKey !== staged.blobKey) {
      // Another upload of the same CID already owns stored bytes: ours are redundant. A failed
      // delete only leaves an unreferenced blob for the orphan sweep; the upload itself succeeded.
      await discardStaged(ctx, staged)
    }
    return { file: created.file, isDuplicate: created.isDuplicate }
  } catch (error) {
    if (!(cid && (await blobIsReferenced(ctx, cid, staged.blobKey)))) await discardStaged(ctx, staged)
    throw error
  }
}

/**
 * Uploads are accepted whatever their CID (it is known only once the bytes are hashed) and never
 * served publicly while a rule blocks them; the tenant is told at once, in the upload's own
 * transaction, with a `content.blocked` entry naming the file and the rule. Only the root is
 * asked (a lookup in memory); a blocked block inside is found when it is read. The entry rides
 * with its notice (tenant, CID, list, line), as the held-content scan's do: a tenant is told once
 * per rule, so the scan finds it told, and a later upload of the same content records its
 * `file.created` alone.
 */
function blockedOnArrival(ctx: CommitSettings, actor: Actor, file: NewFile): BlockedNotice[] {
  const match = ctx.deny.lists.check({ namespace: 'ipfs', cid: CID.parse(file.cid) })
  if (!match) return []
  const facts = contentBlockedFacts(file.cid, match, 'upload', { fileId: file.id, network: file.network })
  const { list, line } = match
  return [{ tenantId: file.tenantId, cid: file.cid, list, line, event: tenantEvent(actor, facts) }]
}

/** The content's CID under the requested profile, and (for files) its DAG's inner nodes. */
async function dagOf(ctx: CommitSettings, staged: Staged, version: CidVersion, signal: AbortSignal | undefined) {
  if (staged.kind === 'car' || version === 'v1') return { cid: staged.cidV1, innerNodes: staged.innerNodes ?? [] }
  // Other profiles are rare and the SDK sends `cid_version` after the bytes, so they are computed from the blob.
  const { cid, innerNodes } = await importFileDag(await ctx.blobs.get(staged.blobKey, { signal }), version)
  return { cid: cid.toString(), innerNodes }
}

/**
 * Records where every block of the staged content lies (a file's inner nodes go to its sidecar
 * first). Done before the content record commits; the entries count only once it has.
 */
async function indexBlocks(
  ctx: CommitSettings,
  staged: Staged,
  cid: string,
  innerNodes: Block[],
  signal: AbortSignal | undefined,
) {
  const root = CID.parse(cid)
  let locations: BlockLocation[]
  if (staged.kind === 'car') {
    locations = (staged.locations ?? []).map((location) => ({
      ...location,
      isRoot: Buffer.compare(Buffer.from(location.multihash), Buffer.from(root.multihash.bytes)) === 0,
    }))
  } else {
    const sidecar = innerNodes.length
      ? await writeFileDagIndex(ctx.blobs, staged.blobKey, root, innerNodes, { signal })
      : []
    locations =
      // a file of one leaf is only its root (an empty file's never was a leaf of any PATCH)
      staged.leavesIndexed && cid === staged.cidV1 && sidecar.length > 0
        ? sidecarLocations(root, sidecar)
        : fileBlockLocations(root, sidecar, staged.blobSize)
  }
  await ctx.records.blocks.putBlockLocations(staged.blobKey, locations, { signal })
}

/**
 * A commit under a given file id that finds the id taken is the retry of one recorded already
 * (the process that made the record died before answering, or lost its claim while it worked):
 * it answers that record, which the tenant held before this call (a duplicate), and makes no other.
 */
async function recordedBefore(
  ctx: CommitSettings,
  error: unknown,
  actor: Actor,
  network: Network,
  fileId: string | undefined,
): Promise<CreatedFile> {
  if (fileId === undefined || !hasCode(error, 'CONFLICT')) throw error
  const earlier = await ctx.records.files.getFile(actor.tenantId, network, fileId)
  const content = earlier && (await ctx.records.files.getContent(earlier.cid))
  if (!content) throw error
  return { file: earlier, isDuplicate: true, content }
}

/**
 * After an ambiguous failure (the database committed but the answer was lost) the blob may
 * already back a record; deleting it then would leave a record without bytes.
 */
async function blobIsReferenced(ctx: CommitSettings, cid: string, blobKey: string): Promise<boolean> {
  try {
    return (await ctx.records.files.getContent(cid))?.blobKey === blobKey
  } catch {
    return true // cannot tell: keeping an orphan is recoverable, losing bytes is not
  }
}
