import type { Migration } from './index.js'

/** How a content's blob holds its DAG: raw file bytes plus the import profile, or a CAR. */
export const contentLayout: Migration = {
  version: 2,
  name: 'content-layout',
  statements: [
    `alter table contents add column profile text
      check (profile in ('v0', 'v1', 'unixfs-v1-2025'))`,
    "alter table contents add constraint contents_kind_check check (kind in ('file', 'car'))",
    "update contents set profile = 'v1' where kind = 'file' and profile is null",
  ],
}
