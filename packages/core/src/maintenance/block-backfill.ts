import { CarIndexer } from '@ipld/car/indexer'
import type { BlockLocation, CallOptions, ContentRecord } from '@pinfold/interface'
import { throwIfAborted } from '@pinfold/interface'
import { CID } from 'multiformats/cid'
import { type Block, blockKey, isIdentity } from '../content/dag/blocks.js'
import { fileBlockLocations } from '../content/dag/file-blocks.js'
import { importFileDag, readFileDagIndex, writeFileDagIndex } from '../content/dag/file-dag-index.js'
import type { ServiceContext } from '../service/context.js'
import type { BackfillResult } from './api.js'

/** What the block-index backfill uses of the service. */
export type BackfillSettings = Pick<ServiceContext, 'records' | 'blobs'>

/** Contents per record-store page while backfilling. */
const PAGE = 50

/**
 * Puts every content stored before the block index existed into it: a file's inner nodes come
 * from its sidecar (or a re-import of its blob, which then writes the sidecar), a CAR's block
 * places from one streaming pass over the CAR with `@ipld/car`'s indexer. Idempotent; a content
 * that fails is reported and skipped, and tried again by the next run.
 */
export async function backfillBlockIndex(ctx: BackfillSettings, options: CallOptions = {}): Promise<BackfillResult> {
  const result: BackfillResult = { indexed: 0, failed: [] }
  let after: string | undefined
  for (;;) {
    const page = await ctx.records.blocks.listUnindexedContents(after, PAGE, options)
    if (page.length === 0) return result
    for (const content of page) {
      throwIfAborted(options.signal)
      after = content.cid
      try {
        const locations = await locate(ctx, content, options)
        if (locations.length > 0) await ctx.records.blocks.putBlockLocations(content.blobKey, locations, options)
        result.indexed++
      } catch (error) {
        result.failed.push({ cid: content.cid, error })
      }
    }
  }
}

async function locate(ctx: BackfillSettings, content: ContentRecord, options: CallOptions): Promise<BlockLocation[]> {
  const root = CID.parse(content.cid)
  if (content.kind === 'car') return carLocations(ctx, content, root, options)
  const stored = await readFileDagIndex(ctx.blobs, content.blobKey, root, options)
  const sidecar =
    stored ??
    (await writeFileDagIndex(ctx.blobs, content.blobKey, root, await reimport(ctx, content, root, options), options))
  return fileBlockLocations(root, sidecar, content.size)
}

/** The inner nodes of a file stored without a sidecar, by importing its blob again with its profile. */
async function reimport(
  ctx: BackfillSettings,
  content: ContentRecord,
  root: CID,
  options: CallOptions,
): Promise<Block[]> {
  const source = await ctx.blobs.get(content.blobKey, options)
  const { cid, innerNodes } = await importFileDag(source, content.profile ?? 'v1')
  if (!cid.equals(root)) throw new Error(`the stored bytes of ${content.cid} no longer produce that CID`)
  return innerNodes
}

async function carLocations(
  ctx: BackfillSettings,
  content: ContentRecord,
  root: CID,
  options: CallOptions,
): Promise<BlockLocation[]> {
  const indexer = await CarIndexer.fromIterable(await ctx.blobs.get(content.blobKey, options))
  const seen = new Set<string>()
  const locations: BlockLocation[] = []
  for await (const { cid, blockOffset, blockLength } of indexer) {
    if (isIdentity(cid) || seen.has(blockKey(cid))) continue
    seen.add(blockKey(cid))
    locations.push({
      multihash: cid.multihash.bytes,
      codec: cid.code,
      source: 'blob',
      offset: blockOffset,
      length: blockLength,
      isRoot: blockKey(cid) === blockKey(root),
    })
  }
  return locations
}
