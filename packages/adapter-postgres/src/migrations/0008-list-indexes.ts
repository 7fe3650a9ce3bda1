import type { Migration } from './index.js'

/** Indexes that bench/scaling.ts showed to be missing or mis-tuned at a million files. */
export const listIndexes: Migration = {
  version: 8,
  name: 'list-indexes',
  statements: [
    // a group's files come straight off the index in (created_at, id) order, whatever the group's
    // size; group_id first still serves files_group_fk's on-delete lookup
    'create index files_group_keyset_idx on files (group_id, created_at, id)',
    'drop index files_group_idx',
    // with fast update, every keyvalues query scans GIN's whole pending list until a VACUUM flushes
    // it — which never comes on PGlite (no autovacuum): 16 ms instead of 0.2 ms at 100k files
    'alter index files_keyvalues_idx set (fastupdate = off)',
    "select gin_clean_pending_list('files_keyvalues_idx')",
  ],
}
