/**
 * Index changes this benchmark proposes for packages/adapter-postgres (a new migration), applied
 * here to the benchmark's own scratch database after the largest size is measured, so their
 * before/after figures come from the same data in the same run.
 */
export const PROPOSED_INDEX_CHANGES: readonly string[] = [
  // none open: the last proposals (files_group_keyset_idx, GIN without fast update) became
  // migration 0008-list-indexes; their before/after figures are in bench/README.md's fixes table
]
