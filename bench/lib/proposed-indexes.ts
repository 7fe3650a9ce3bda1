/**
 * Index changes this benchmark proposes for packages/adapter-postgres (a new migration), applied
 * here to the benchmark's own scratch database after the largest size is measured, so their
 * before/after figures come from the same data in the same run.
 */
export const PROPOSED_INDEX_CHANGES: readonly string[] = [
  // A group's page comes straight off (group_id, created_at, id) in order, whatever the group's
  // size; `files_group_idx (group_id)` makes PostgreSQL fetch and sort every file of the group.
  // The leading group_id still serves files_group_fk's `on delete set null` lookup.
  'create index files_group_keyset_idx on files (group_id, created_at, id)',
  'drop index files_group_idx',
  // GIN's fast-update pending list is scanned in full by every keyvalues query until VACUUM,
  // autoanalyze or the 4 MB gin_pending_list_limit flushes it (PGlite never autovacuums); rows
  // with a few keyvalues are cheap to insert into the GIN tree directly.
  'alter index files_keyvalues_idx set (fastupdate = off)',
  "select gin_clean_pending_list('files_keyvalues_idx')",
  // no ANALYZE: plain-column indexes need no new statistics, and a fresh sample can flip unrelated
  // plans (it moved the name-prefix query between its two plans), blurring before/after
]
