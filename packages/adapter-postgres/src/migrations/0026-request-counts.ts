import type { Migration } from './index.js'

/**
 * The requests-per-minute quota's shared counters: each process adds what it admitted for a
 * tenant about once a second (`addRequestCounts`), so the limit holds across every process sharing
 * the database. One row per tenant and minute; rows older than the previous minute are dropped by
 * the processes as the minutes turn, found by the window index.
 */
export const requestCounts: Migration = {
  version: 26,
  name: 'request-counts',
  statements: [
    `create table tenant_request_counts (
      tenant_id text not null,
      window_start bigint not null,
      count bigint not null,
      primary key (tenant_id, window_start)
    )`,
    'create index tenant_request_counts_window_idx on tenant_request_counts (window_start)',
  ],
}
