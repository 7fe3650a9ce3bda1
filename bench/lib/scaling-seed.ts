import type { Queryable } from '@pinfold/adapter-postgres'

/** Tenants the files are spread over, round-robin; the benchmark reads as `tenant-0`. */
export const TENANTS = 4
/** Small groups per tenant and network, besides the one big group (`k = 0`). */
export const SMALL_GROUPS = 200

// Rows are generated inside the database from their ordinal `i`, so seeding 1M rows is a handful of
// INSERT … SELECT generate_series statements. For a row, j = i / TENANTS is its ordinal within its
// tenant; every property below is a function of i or j, so the benchmark knows what matches:
// - network: private when j % 10 = 9, else public;
// - group: the big group (k = 0) when j % 10 = 1, one of SMALL_GROUPS small groups when j % 10 is
//   2, 3 or 4, none otherwise. Group ids are md5-derived UUIDs, so files can name them;
// - name: `report-<i>.pdf` when j % 100 = 5 (1 %), else `photo-<i>.jpg`;
// - keyvalues: env = prod | dev | test (a third each), batch = j % 1000 (0.1 % each);
// - cid: unique per file; created_at: one second apart in insertion order.
const groupId = (tenant: string, network: string, k: string) => `md5('g' || ${tenant} || ${network} || ${k})::uuid`

const TENANT_OF_I = `'tenant-' || (i % ${TENANTS})`

/** Creates the groups of every tenant and network (once, before the first files). */
export async function seedGroups(db: Queryable): Promise<void> {
  await db.query(
    `insert into groups (id, tenant_id, network, name, is_public, created_at)
     select ${groupId("'tenant-' || t", 'n', 'k')}, 'tenant-' || t, n,
            case when k = 0 then 'big group' else 'group ' || k end, k % 2 = 0,
            timestamptz '2023-01-01' + k * interval '1 second'
     from generate_series(0, ${TENANTS - 1}) t, unnest(array['public', 'private']) n,
          generate_series(0, ${SMALL_GROUPS}) k`,
  )
}

/**
 * Adds files `from` … `to - 1` (and their contents) in batches, then refreshes planner statistics.
 * `skipTriggers` turns off the foreign-key triggers while seeding (the rows satisfy them by
 * construction): about a quarter of PGlite's seeding time. It needs a superuser and one connection.
 */
export async function seedFiles(db: Queryable, from: number, to: number, skipTriggers = false): Promise<void> {
  const batch = 100_000
  if (skipTriggers) await db.query('set session_replication_role = replica')
  for (let start = from; start < to; start += batch) {
    const end = Math.min(start + batch, to) - 1
    await db.query(
      `insert into contents (cid, blob_key, size, kind, profile)
       select 'bafkrei' || md5(i::text), 'blob-' || i, 1024 + i % 4096, 'file', 'v1'
       from generate_series(${start}, ${end}) i`,
    )
    await db.query(
      `insert into files (id, tenant_id, user_id, network, name, cid, size, number_of_files, mime_type,
                          group_id, keyvalues, created_at, expires_at, vectorized)
       select md5('f' || i)::uuid, ${TENANT_OF_I}, 'user', net,
              case when j % 100 = 5 then 'report-' || i || '.pdf' else 'photo-' || i || '.jpg' end,
              'bafkrei' || md5(i::text), 1024 + i % 4096, 1,
              case when j % 100 = 5 then 'application/pdf' else 'image/jpeg' end,
              case when j % 10 = 1 then ${groupId(TENANT_OF_I, 'net', "'0'")}
                   when j % 10 between 2 and 4 then ${groupId(TENANT_OF_I, 'net', `(1 + (j / 10) % ${SMALL_GROUPS})::text`)}
              end,
              jsonb_build_object('env', (array['prod', 'dev', 'test'])[j % 3 + 1], 'batch', (j % 1000)::text),
              timestamptz '2024-01-01' + i * interval '1 second', null, false
       from generate_series(${start}, ${end}) i,
            lateral (select i / ${TENANTS} as j) o,
            lateral (select case when (i / ${TENANTS}) % 10 = 9 then 'private' else 'public' end as net) n`,
    )
  }
  if (skipTriggers) await db.query('reset session_replication_role')
  // The server's autovacuum would analyze eventually (PGlite has none); plans are judged on fresh statistics.
  await db.query('analyze files')
  await db.query('analyze groups')
}

/** The id of group `k` of a tenant and network, as seeded: 0 is the big group, 1 … SMALL_GROUPS small ones. */
export async function seededGroupId(db: Queryable, tenant: string, network: string, k: number): Promise<string> {
  const { rows } = await db.query(`select ${groupId('$1::text', '$2::text', '$3::text')} as id`, [
    tenant,
    network,
    String(k),
  ])
  return String(rows[0]!.id)
}
