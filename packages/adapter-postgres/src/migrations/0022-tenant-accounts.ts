import type { Migration } from './index.js'

/**
 * Per-tenant accounting under deduplication and the operator's per-tenant limits:
 * - `content_holders`: how many files of each tenant reference each content, and
 *   `contents.holders`, how many tenants do; with them `createFile` and `deleteFile` know when a
 *   content becomes a tenant's, or shared, or no longer shared;
 * - `tenant_usage`: each tenant's files, logical bytes, contents, sole and shared bytes, moved in
 *   the same transaction as the file row (files.ts), so a question costs one row, never a scan;
 * - `tenant_limits`: the overrides an operator set, as JSON (absent keys take the defaults).
 * Filled from the rows already there, so a deployment upgraded in place starts with true figures.
 */
export const tenantAccounts: Migration = {
  version: 22,
  name: 'tenant-accounts',
  statements: [
    `create table content_holders (
      cid text not null,
      tenant_id text not null,
      files bigint not null,
      primary key (cid, tenant_id)
    )`,
    'alter table contents add column holders integer not null default 0',
    `create table tenant_usage (
      tenant_id text primary key,
      files bigint not null default 0,
      logical_bytes bigint not null default 0,
      contents bigint not null default 0,
      sole_bytes bigint not null default 0,
      shared_bytes bigint not null default 0
    )`,
    `create table tenant_limits (
      tenant_id text primary key,
      limits jsonb not null
    )`,
    `insert into content_holders (cid, tenant_id, files)
     select cid, tenant_id, count(*) from files group by cid, tenant_id`,
    `update contents set holders = h.n
     from (select cid, count(*) as n from content_holders group by cid) h where h.cid = contents.cid`,
    `insert into tenant_usage (tenant_id, files, logical_bytes, contents, sole_bytes, shared_bytes)
     select t.tenant_id, t.files, t.logical_bytes,
       coalesce(c.contents, 0), coalesce(c.sole_bytes, 0), coalesce(c.shared_bytes, 0)
     from (select tenant_id, count(*) as files, sum(size) as logical_bytes from files group by tenant_id) t
     left join (
       select h.tenant_id, count(*) as contents,
         sum(case when c.holders = 1 then c.size else 0 end) as sole_bytes,
         sum(case when c.holders > 1 then c.size else 0 end) as shared_bytes
       from content_holders h join contents c on c.cid = h.cid group by h.tenant_id
     ) c on c.tenant_id = t.tenant_id`,
  ],
}
