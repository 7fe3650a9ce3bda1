import type { UploadSessionRecord } from '@pinfold/interface'
import { StagedDag } from '../content/staging/staged-dag.js'
import { parseEntry } from '../content/staging/staged-parts.js'

/**
 * The blobs a resumable upload's session holds under `tus/<session id>/`: each PATCH's own blob
 * (sessions without staged writes), or the carry blobs its parts name and its saved DAG nodes
 * (staged sessions). The staged blob itself (`blobs/…`) is not among them: a content owns it once
 * the upload completes.
 */
export function sessionBlobKeys(session: UploadSessionRecord): string[] {
  if (!session.staged) return [...session.parts]
  const carries = session.parts.flatMap((part) => {
    const carry = parseEntry(part).carry
    return carry ? [carry.key] : []
  })
  return [...carries, ...StagedDag.blobKeys(session.staged)]
}
