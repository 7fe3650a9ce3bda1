import type { Migration } from './index.js'

/** The claim that lets exactly one PATCH at a tus upload's final offset record the upload. */
export const uploadCompletionClaim: Migration = {
  version: 11,
  name: 'upload-completion-claim',
  statements: ['alter table upload_sessions add column completion_claimed boolean not null default false'],
}
