import type { Migration } from './index.js'

/**
 * What the Pinning Service API asks of the pin-by-CID queue:
 * - `replaces`, the pinned request a replacement supersedes (its file is kept until the new one
 *   ends), and `dag_size`, the stored DAG's size once pinned (`info.dag_size`);
 * - `pin_request_counts`, each tenant's requests per state, moved by a trigger with every insert,
 *   state change and delete: `GET /pins` answers `count` with every page, and counting a tenant's
 *   million pins row by row would cost a hundred times the page itself. The trigger touches the two
 *   states' rows in the order of their names, so two changes in opposite directions (a claim and
 *   a release) never wait on each other's rows in a cycle; it keeps the schema it was made in
 *   (`set search_path from current`), as stores share a database in schemas of their own;
 * - indexes for the filters a page is read by: a state's newest first (the default lists pinned
 *   ones only), a CID's requests, an exact name (Kubo's `--name`), keyvalues (`?meta=`, as
 *   `files_keyvalues_idx` serves files). Case-insensitive and partial names are matched by a scan of
 *   the account's requests.
 */
export const pinningService: Migration = {
  version: 21,
  name: 'pinning-service',
  statements: [
    'alter table pin_requests add column replaces uuid',
    'alter table pin_requests add column dag_size bigint',
    `create table pin_request_counts (
      tenant_id text not null,
      state text not null,
      count bigint not null,
      primary key (tenant_id, state)
    )`,
    `insert into pin_request_counts (tenant_id, state, count)
     select tenant_id, state, count(*) from pin_requests group by tenant_id, state`,
    `create function pin_request_counts_move() returns trigger language plpgsql
     set search_path from current as $$
     begin
       if tg_op = 'UPDATE' and old.state = new.state then
         return null;
       end if;
       if tg_op = 'DELETE' or (tg_op = 'UPDATE' and old.state < new.state) then
         update pin_request_counts set count = count - 1 where tenant_id = old.tenant_id and state = old.state;
       end if;
       if tg_op <> 'DELETE' then
         insert into pin_request_counts (tenant_id, state, count) values (new.tenant_id, new.state, 1)
         on conflict (tenant_id, state) do update set count = pin_request_counts.count + 1;
       end if;
       if tg_op = 'UPDATE' and old.state > new.state then
         update pin_request_counts set count = count - 1 where tenant_id = old.tenant_id and state = old.state;
       end if;
       return null;
     end $$`,
    `create trigger pin_request_counts_move after insert or delete or update of state on pin_requests
     for each row execute function pin_request_counts_move()`,
    'create index pin_requests_state_idx on pin_requests (tenant_id, state, created_at, id)',
    'create index pin_requests_cid_idx on pin_requests (tenant_id, cid)',
    'create index pin_requests_name_idx on pin_requests (tenant_id, name)',
    'create index pin_requests_keyvalues_idx on pin_requests using gin (keyvalues jsonb_path_ops)',
  ],
}
