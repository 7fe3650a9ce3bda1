import type { Migration } from './index.js'

/**
 * A tus upload's completion claim gets an owner and a lease, so a retry takes over the claim of a
 * process that died holding it. A claim the old boolean left held has no owner alive to finish it:
 * it becomes a lease that ran out at once.
 */
export const uploadCompletionLease: Migration = {
  version: 18,
  name: 'upload-completion-lease',
  statements: [
    'alter table upload_sessions add column completion_owner text',
    'alter table upload_sessions add column completion_expires_at timestamptz',
    `update upload_sessions set completion_owner = 'claimed before leases', completion_expires_at = '-infinity'
     where completion_claimed`,
    'alter table upload_sessions drop column completion_claimed',
  ],
}
