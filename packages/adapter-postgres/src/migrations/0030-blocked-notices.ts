import type { Migration } from './index.js'

/**
 * What the deny lists' background scan of held content keeps (`records.denyRules.*Blocked*`):
 * `blocked_notices`, one row per tenant, CID and rule (list, line) a `content.blocked` entry was
 * appended for, written in that entry's transaction so no instance or restart tells it twice;
 * `blocked_scan`, the scan's saved position (one row), so a restart resumes it.
 */
export const blockedNotices: Migration = {
  version: 30,
  name: 'blocked-notices',
  statements: [
    `create table blocked_notices (
      tenant_id text not null,
      cid text not null,
      list text not null,
      line bigint not null,
      created_at timestamptz not null default now(),
      primary key (tenant_id, cid, list, line)
    )`,
    `create table blocked_scan (
      id text primary key,
      fingerprint text not null,
      cursor text
    )`,
  ],
}
