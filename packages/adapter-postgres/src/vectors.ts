import {
  checkEmbedding,
  checkVector,
  embeddingMismatch,
  type FileRecord,
  type Network,
  type NewEvent,
  optionChecks,
  PinfoldError,
  sameEmbedding,
  throwIfAborted,
  type VectorEmbedding,
  type VectorMatch,
  type VectorQuery,
  type VectorRecordStore,
  type VectorUpsertOptions,
  vectorizedExceeded,
} from '@pinfold/interface'
import { guarded } from './errors.js'
import { appendEvents } from './events.js'
import { vectors as vectorsMigration } from './migrations/0006-vectors.js'
import type { Queryable, SqlClient } from './queryable.js'
import { FILE_COLUMNS, toFileRecord } from './rows.js'
import { isUuid } from './sql.js'

export interface PostgresVectorOptions {
  /**
   * A group holding at most this many passage vectors is searched exactly (every vector compared);
   * a bigger one through the HNSW index. Default 2,000 (an exact scan of 2,000 passages takes a few
   * ms on a server, tens of ms in PGlite). 0 always uses the index when there is one.
   */
  exactSearchMaxVectors?: number | undefined
  /** HNSW `ef_search` for group queries: higher finds more of the true nearest neighbours, slower. Default 100. */
  efSearch?: number | undefined
  /**
   * HNSW build parameters `m` (links per node, 2–100, default 16) and `ef_construction` (candidates
   * while building, at least 2 × m, default 64). Read when the index is created, i.e. on the first
   * vectors of an embedder (or after `resetVectorIndex`): changing them later needs a reindex.
   */
  hnswM?: number | undefined
  hnswEfConstruction?: number | undefined
  /**
   * pgvector's `hnsw.max_scan_tuples` for the iterative scan of a group query: how many index rows
   * the walk may visit before giving up (then the query falls back to the exact scan). Default 20,000.
   */
  maxScanTuples?: number | undefined
}

/** pgvector's HNSW indexes vectors of up to 2,000 dimensions; bigger ones are searched exactly. */
export const HNSW_MAX_DIMENSIONS = 2000

const HNSW_INDEX = 'file_vectors_hnsw'

export const VECTORS_UNAVAILABLE =
  'semantic vectors are unavailable: the vector extension (pgvector) is not installed in this PostgreSQL database ' +
  '(install pgvector, then call enableVectors(client) from @pinfold/adapter-postgres or restart the server)'

/**
 * Installs the vector tables after the fact, on a database migrated before pgvector was available.
 * Idempotent; does nothing (and vector methods keep answering `UNAVAILABLE`) while pgvector is missing.
 */
export async function enableVectors(client: SqlClient): Promise<boolean> {
  await client.transaction(async (tx) => {
    for (const statement of vectorsMigration.statements) await tx.query(statement)
  })
  return (await vectorSchema(client)) !== undefined
}

/** The schema holding pgvector's types and operators, when the extension and the vector tables exist. */
async function vectorSchema(db: Queryable): Promise<string | undefined> {
  const { rows } = await db.query(
    `select n.nspname as schema, to_regclass('file_vectors') is not null and to_regclass('vector_index') is not null as ready
     from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'vector'`,
  )
  const row = rows[0]
  return row && row.ready === true ? String(row.schema) : undefined
}

/** A quoted SQL identifier. */
const ident = (name: string) => `"${name.replaceAll('"', '""')}"`

/** pgvector's text form of a vector; 9 significant digits round-trip any float32 exactly. */
const vectorLiteral = (vector: Float32Array) => `[${Array.from(vector, (value) => value.toPrecision(9)).join(',')}]`

/**
 * The vector methods of the PostgreSQL record store.
 *
 * Search: a query first counts (up to the threshold) the passages of the (tenant, network, group) it asks about. A group
 * of at most `exactSearchMaxVectors` passages is ranked exactly — a scan of just that group's rows,
 * found through `files_group_idx` and the primary key of `file_vectors`. Bigger groups use the HNSW
 * index (cosine) with pgvector 0.8's iterative scan: the index is walked in distance order and rows
 * of other groups or tenants are skipped until enough of the group's passages are found, so
 * filtering happens before the top-k cut. Should the walk stop early (`hnsw.max_scan_tuples`) with
 * fewer files than the group can answer, the query falls back to the exact scan: a group with N
 * vectorized files always answers min(N, limit) matches.
 */
export function postgresVectorRecords(client: SqlClient, options: PostgresVectorOptions = {}): VectorRecordStore {
  // reached through createPostgresRecordStore's `vectors` option, so the checks name that factory
  const check = optionChecks('@pinfold/adapter-postgres', 'createPostgresRecordStore')
  const exactSearchMaxVectors = check.nonNegativeInteger(
    'vectors.exactSearchMaxVectors',
    options.exactSearchMaxVectors ?? 2000,
  )
  const efSearch = check.integerBetween('vectors.efSearch', options.efSearch ?? 100, 1, 1000)
  const hnswM = check.integerBetween('vectors.hnswM', options.hnswM ?? 16, 2, 100)
  const hnswEfConstruction = check.integerBetween(
    'vectors.hnswEfConstruction',
    options.hnswEfConstruction ?? 64,
    2 * hnswM,
    1000,
  )
  const maxScanTuples = check.integerBetween('vectors.maxScanTuples', options.maxScanTuples ?? 20_000, 1, 2 ** 31 - 1)

  let schema: Promise<string> | undefined
  /** The extension's schema; failures are not cached, so installing pgvector later needs no restart. */
  const ready = () => {
    schema ??= vectorSchema(client).then((found) => {
      if (found === undefined) throw new PinfoldError('UNAVAILABLE', VECTORS_UNAVAILABLE)
      return found
    })
    schema.catch(() => {
      schema = undefined
    })
    return schema
  }

  async function recordedEmbedding(db: Queryable, lock: '' | 'for share' = ''): Promise<VectorEmbedding | undefined> {
    const { rows } = await db.query(`select embedder_id, dimensions from vector_index ${lock}`)
    const row = rows[0]
    return row && { embedderId: String(row.embedder_id), dimensions: Number(row.dimensions) }
  }

  /** Checks `given` against the recorded embedder, or records it (and builds its index) when there is none. */
  async function claimEmbedding(tx: Queryable, ext: string, given: VectorEmbedding): Promise<void> {
    let stored = await recordedEmbedding(tx, 'for share')
    if (!stored) {
      const inserted = await tx.query(
        `insert into vector_index (embedder_id, dimensions) values ($1, $2) on conflict do nothing returning singleton`,
        [given.embedderId, given.dimensions],
      )
      if (inserted.rows.length > 0) {
        // The first vectors of this embedder: index them. Still empty, so building is instant; the
        // row lock above makes every later upsert wait for this commit.
        if (given.dimensions <= HNSW_MAX_DIMENSIONS) {
          await tx.query(
            `create index if not exists ${HNSW_INDEX} on file_vectors using hnsw
             ((embedding::${ident(ext)}.vector(${given.dimensions})) ${ident(ext)}.vector_cosine_ops)
             with (m = ${hnswM}, ef_construction = ${hnswEfConstruction})`,
          )
        }
        return
      }
      stored = await recordedEmbedding(tx, 'for share') // a concurrent first upsert won
    }
    if (stored && !sameEmbedding(stored, given)) throw embeddingMismatch(stored, given)
  }

  async function upsertFileVectors(
    tenantId: string,
    network: Network,
    fileId: string,
    given: VectorEmbedding,
    vectors: readonly Float32Array[],
    options?: VectorUpsertOptions,
  ): Promise<FileRecord | undefined> {
    checkEmbedding(given)
    vectors.forEach((vector, i) => {
      checkVector(vector, given.dimensions, `vector ${i}`)
    })
    const ext = await ready()
    if (!isUuid(fileId)) {
      // still report an embedder mismatch, as for an existing file
      const stored = await recordedEmbedding(client)
      if (stored && !sameEmbedding(stored, given)) throw embeddingMismatch(stored, given)
      return undefined
    }
    return client.transaction(async (tx) => {
      // The file's row lock orders this against deleteFile (whose cascade then takes the vectors)
      // and against other upserts of the same file (each replaces the whole set).
      const file = await tx.query(
        'select id, vectorized from files where id = $1 and tenant_id = $2 and network = $3 for update',
        [fileId, tenantId, network],
      )
      if (file.rows.length === 0) {
        const stored = await recordedEmbedding(tx)
        if (stored && !sameEmbedding(stored, given)) throw embeddingMismatch(stored, given)
        return undefined
      }
      const max = options?.maxVectorizedFiles
      if (max !== undefined && file.rows[0]!.vectorized !== true) {
        // the tenant's upserts of new files count one after the other (the lock lasts until commit),
        // each seeing the files the earlier ones marked: a limit is never passed by a race
        await tx.query(`select pg_advisory_xact_lock(hashtext('pinfold_vectorized'), hashtext($1))`, [tenantId])
        const { rows } = await tx.query('select count(*)::bigint as n from files where tenant_id = $1 and vectorized', [
          tenantId,
        ])
        if (Number(rows[0]!.n) + 1 > max) throw vectorizedExceeded(max)
      }
      await claimEmbedding(tx, ext, given)
      await tx.query('delete from file_vectors where file_id = $1', [fileId])
      if (vectors.length > 0) {
        await tx.query(
          `insert into file_vectors (file_id, passage, embedding)
           select $1, ordinality - 1, value::${ident(ext)}.vector from unnest($2::text[]) with ordinality as t(value, ordinality)`,
          [fileId, vectors.map(vectorLiteral)],
        )
      }
      const { rows } = await tx.query(`update files set vectorized = true where id = $1 returning ${FILE_COLUMNS}`, [
        fileId,
      ])
      await appendEvents(tx, options?.events)
      throwIfAborted(options?.signal)
      return toFileRecord(rows[0]!)
    })
  }

  async function deleteFileVectors(
    tenantId: string,
    network: Network,
    fileId: string,
    events: readonly NewEvent[] | undefined,
  ) {
    await ready()
    if (!isUuid(fileId)) return undefined
    return client.transaction(async (tx) => {
      const { rows } = await tx.query(
        `update files set vectorized = false where id = $1 and tenant_id = $2 and network = $3 returning ${FILE_COLUMNS}`,
        [fileId, tenantId, network],
      )
      if (rows.length === 0) return undefined
      await tx.query('delete from file_vectors where file_id = $1', [fileId])
      await appendEvents(tx, events)
      return toFileRecord(rows[0]!)
    })
  }

  async function queryVectors(query: VectorQuery, given: VectorEmbedding): Promise<VectorMatch[]> {
    checkEmbedding(given)
    checkVector(query.vector, given.dimensions, 'the query vector')
    const ext = await ready()
    const stored = await recordedEmbedding(client)
    if (!stored) return []
    if (!sameEmbedding(stored, given)) throw embeddingMismatch(stored, given)
    if (!isUuid(query.groupId)) return []
    const limit = Math.max(1, Math.floor(query.limit))
    const scope = [query.tenantId, query.network, query.groupId]
    const inGroup = 'f.tenant_id = $1 and f.network = $2 and f.group_id = $3'
    // Sized by vectorized files first (an index scan of the group, stopping early): a group with more
    // files than the threshold has more passages too, and counting passages costs a primary-key
    // lookup per row (~2,000 of them for every big-group query, measured at 30–40 ms on a loaded
    // server). Only a group under the threshold by files has its passages counted. The count goes
    // at least to `candidates` files, so it also tells whether an index walk saw the whole group.
    // Enough passages to cover `limit` distinct files even when the best ones share files.
    const candidates = Math.min(1000, limit * 10)
    const { rows: fileCount } = await client.query(
      `select count(*) as files from (select 1 from files f where ${inGroup} and f.vectorized limit $4) q`,
      [...scope, Math.max(exactSearchMaxVectors + 1, candidates)],
    )
    const files = Number(fileCount[0]?.files ?? 0)
    if (files === 0) return []
    let passages = files
    if (files <= exactSearchMaxVectors) {
      const { rows } = await client.query(
        `select count(*) as passages from
           (select 1 from file_vectors v join files f on f.id = v.file_id where ${inGroup} limit $4) p`,
        [...scope, Math.max(exactSearchMaxVectors + 1, candidates)],
      )
      passages = Number(rows[0]?.passages ?? 0)
      if (passages === 0) return []
    }
    const vector = vectorLiteral(query.vector)
    /** min(vectorized files in the group, limit): fewer from the index means it stopped early. */
    const wanted = Math.min(files, limit)

    if (passages > exactSearchMaxVectors && stored.dimensions <= HNSW_MAX_DIMENSIONS) {
      const approximate = await client.transaction(async (tx) => {
        const typed = `${ident(ext)}.vector(${stored.dimensions})`
        const distance = `v.embedding::${typed} operator(${ident(ext)}.<=>) $4::${typed}`
        // The plan we want: walk the HNSW index in distance order, checking each row's file by its
        // primary key (the scalar subquery keeps the planner from turning the check into a join),
        // until enough rows of the group are found. Without fresh statistics (PGlite runs no
        // autovacuum) the planner may prefer scanning and sorting the group instead, so this
        // transaction switches sequential scans and sorts off (they stay possible, just costed last).
        // That inflates the plan's cost past `jit_above_cost`, and on a server built with LLVM the
        // query was then JIT-compiled every time: ~310 ms of a 330 ms query (100k GloVe vectors), so
        // JIT is off too — the query runs in milliseconds and never gains from it.
        await tx.query(
          `select set_config('hnsw.iterative_scan', 'relaxed_order', true), set_config('hnsw.ef_search', $1, true),
             set_config('hnsw.max_scan_tuples', $2, true),
             set_config('enable_seqscan', 'off', true), set_config('enable_sort', 'off', true),
             set_config('jit', 'off', true)`,
          [String(Math.max(efSearch, candidates)), String(maxScanTuples)],
        )
        // relaxed_order returns rows nearly in order; the outer query sorts them exactly.
        const { rows } = await tx.query(
          `with candidates as materialized (
             select v.file_id, ${distance} as distance
             from file_vectors v
             where (select row(f.tenant_id, f.network, f.group_id) from files f where f.id = v.file_id)
               = row($1::text, $2::text, $3::uuid)
             order by ${distance}
             limit $5
           )
           select c.file_id, f.cid, 1 - min(c.distance) as score, (select count(*) from candidates) as found
           from candidates c join files f on f.id = c.file_id
           group by c.file_id, f.cid
           order by score desc, c.file_id
           limit $6`,
          [...scope, vector, candidates, limit],
        )
        return { rows, found: Number(rows[0]?.found ?? 0) }
      })
      // A walk that found fewer candidates than it asked for (and than the group holds) stopped at
      // `hnsw.max_scan_tuples`: its best rows are only the best of what it happened to visit. Measured
      // on 100k GloVe vectors, a group of 100 searched this way got recall@10 0.75, so such an answer
      // is never returned; the exact scan below is.
      const complete = approximate.found >= Math.min(candidates, passages)
      if (complete && approximate.rows.length >= wanted) return approximate.rows.map(toMatch)
    }

    const { rows } = await client.query(
      `select f.id as file_id, f.cid, 1 - min(v.embedding operator(${ident(ext)}.<=>) $4::${ident(ext)}.vector) as score
       from file_vectors v join files f on f.id = v.file_id
       where ${inGroup}
       group by f.id, f.cid
       order by score desc, f.id
       limit $5`,
      [...scope, vector, limit],
    )
    return rows.map(toMatch)
  }

  return {
    upsertFileVectors: (tenantId, network, fileId, embedding, passageVectors, options) =>
      guarded('upsertFileVectors', options, () =>
        upsertFileVectors(tenantId, network, fileId, embedding, passageVectors, options),
      ),
    deleteFileVectors: (tenantId, network, fileId, options) =>
      guarded('deleteFileVectors', options, () => deleteFileVectors(tenantId, network, fileId, options?.events)),
    queryVectors: (query, embedding, options) => guarded('queryVectors', options, () => queryVectors(query, embedding)),
    getVectorEmbedding: (options) =>
      guarded('getVectorEmbedding', options, async () => {
        await ready()
        return recordedEmbedding(client)
      }),
    resetVectorIndex: (options) =>
      guarded('resetVectorIndex', options, async () => {
        await ready()
        await client.transaction(async (tx) => {
          // files first, then the index row: the order upserts take their locks in
          await tx.query('update files set vectorized = false where vectorized')
          await tx.query('delete from vector_index')
          await tx.query(`drop index if exists ${HNSW_INDEX}`)
          // truncate, not delete: deleted rows stay "recently dead" while any other transaction of the
          // database holds an older snapshot, and CREATE INDEX indexes those too — the next embedder's
          // index (`embedding::vector(<its dimensions>)`) then failed on the old embedder's rows
          // ("expected 3 dimensions, not 8", seen on the server with test files running in parallel).
          await tx.query('truncate file_vectors')
        })
      }),
  }
}

function toMatch(row: Record<string, unknown>): VectorMatch {
  return { fileId: String(row.file_id), cid: String(row.cid), score: Number(row.score) }
}
