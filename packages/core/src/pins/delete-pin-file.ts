import type { CallOptions } from '@pinfold/interface'
import { deleteContentBlobs } from '../content/dag/car-blob.js'
import type { ServiceContext } from '../service/context.js'

/**
 * Deletes the public file a pin request made (it has the request's id), releasing its bytes when
 * no other file holds them; false when there is none (never made, or deleted already).
 */
export async function deletePinFile(
  ctx: Pick<ServiceContext, 'records' | 'blobs'>,
  tenantId: string,
  id: string,
  options?: CallOptions,
): Promise<boolean> {
  const deleted = await ctx.records.files.deleteFile(tenantId, 'public', id, options)
  if (deleted?.releasedContent) await deleteContentBlobs(ctx.blobs, deleted.releasedContent.blobKey)
  return deleted !== undefined
}
