import { v7 as uuidv7 } from 'uuid'
import { PinfoldError } from '../errors.js'
import type { BlobStore, Clock, IdSource, RecordStore } from '../ports.js'
import type { ServiceContext } from './context.js'
import { createFileOperations } from './files.js'
import { createGroupOperations } from './groups.js'
import { createUploads } from './uploads.js'

export interface FileServiceOptions {
  records: RecordStore
  blobs: BlobStore
  clock?: Clock | undefined
  ids?: IdSource | undefined
  /** Largest accepted upload in bytes; default 25 GiB (Pinata's limit). */
  maxUploadBytes?: number | undefined
  /** Secret (≥ 32 bytes) for signed upload URLs and download links; without it those features refuse. */
  signingSecret?: string | Uint8Array | undefined
}

export const systemClock: Clock = { now: () => new Date() }

export const uuidIds: IdSource = {
  recordId: () => uuidv7(),
  // time-ordered keys keep a store's listing roughly chronological, which helps orphan sweeps
  blobKey: () => `blobs/${uuidv7()}`,
}

/**
 * The domain in one object: every operation the HTTP API offers, as plain async functions taking
 * the acting tenant first. Embed it directly, or serve it with `@pinfold/http-node`.
 */
export function createFileService(options: FileServiceOptions) {
  if (!options?.records) throw new PinfoldError('INVALID_INPUT', '@pinfold/core: createFileService needs `records`')
  if (!options.blobs) throw new PinfoldError('INVALID_INPUT', '@pinfold/core: createFileService needs `blobs`')
  const maxUploadBytes = options.maxUploadBytes ?? 25 * 1024 ** 3
  if (!Number.isSafeInteger(maxUploadBytes) || maxUploadBytes < 0) {
    throw new PinfoldError('INVALID_INPUT', '@pinfold/core: `maxUploadBytes` must be a non-negative integer')
  }
  const ctx: ServiceContext = {
    records: options.records,
    blobs: options.blobs,
    clock: options.clock ?? systemClock,
    ids: options.ids ?? uuidIds,
    maxUploadBytes,
    signingSecret: options.signingSecret,
  }
  const uploads = createUploads(ctx)
  return {
    files: { upload: uploads.upload, ...createFileOperations(ctx) },
    groups: createGroupOperations(ctx),
    records: ctx.records,
    blobs: ctx.blobs,
    clock: ctx.clock,
  }
}

export type FileService = ReturnType<typeof createFileService>
