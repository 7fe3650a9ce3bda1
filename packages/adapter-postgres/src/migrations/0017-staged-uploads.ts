import type { Migration } from './index.js'

/**
 * The staged blob write a resumable upload appends its PATCHes to (`{ key, handle }`); sessions
 * created before it keep `null` and their one-blob-per-part layout.
 */
export const stagedUploads: Migration = {
  version: 17,
  name: 'staged-uploads',
  statements: ['alter table upload_sessions add column staged jsonb'],
}
