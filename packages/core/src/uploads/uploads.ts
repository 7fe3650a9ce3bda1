import type { UploadOperations } from './api.js'
import { createResumableUploadOperations, type ResumableUploadOperationSettings } from './resumable.js'
import { createSignedUploadOperations, type SignedUploadSettings } from './signed.js'

/** What uploads beyond a single request use: signed URLs' and resumable sessions' settings together. */
export type UploadSettings = SignedUploadSettings & ResumableUploadOperationSettings

/** `FileService.uploads`: signed upload URLs (`signed.ts`) and resumable tus sessions (`resumable.ts`). */
export function createUploadOperations(ctx: UploadSettings): UploadOperations {
  return { signed: createSignedUploadOperations(ctx), ...createResumableUploadOperations(ctx) }
}
