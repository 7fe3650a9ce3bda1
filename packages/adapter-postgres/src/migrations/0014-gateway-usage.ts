import type { Migration } from './index.js'

/**
 * Gateway usage totals by tenant, day, CID, file name and status. Servers add batches of counts
 * they aggregated in memory (insert … on conflict do update), never a row per request.
 */
export const gatewayUsage: Migration = {
  version: 14,
  name: 'gateway-usage',
  statements: [
    `create table gateway_usage (
      tenant_id text not null,
      day date not null,
      cid text collate "C" not null,
      file_name text not null,
      status smallint not null,
      requests bigint not null check (requests >= 0),
      bytes bigint not null check (bytes >= 0),
      primary key (tenant_id, day, cid, file_name, status)
    )`,
    // storageUsage sums a tenant's files; listings already index (tenant_id, network, …)
    'create index files_tenant_size_idx on files (tenant_id) include (size)',
  ],
}
