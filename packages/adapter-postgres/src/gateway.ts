import type {
  DomainRecord,
  DomainStatus,
  FileRecord,
  GatewayRecordStore,
  Network,
  NewEvent,
  SignatureRecord,
  SwapRecord,
} from '@pinfold/interface'
import { PinfoldError } from '@pinfold/interface'
import { guarded } from './errors.js'
import { appendEvents, withEvents } from './events.js'
import type { Queryable, Row, SqlClient } from './queryable.js'
import { FILE_COLUMNS, toDate, toFileRecord } from './rows.js'
import { isUuid } from './sql.js'

const SWAP_COLUMNS = 'tenant_id, network, cid, mapped_cid, created_at'
const SIGNATURE_COLUMNS = 'tenant_id, network, cid, signature, address, created_at'
const DOMAIN_COLUMNS = 'id, tenant_id, domain, verification_token, status, created_at, verified_at, expires_at'

function toSwap(row: Row): SwapRecord {
  return {
    tenantId: String(row.tenant_id),
    network: row.network as Network,
    cid: String(row.cid),
    mappedCid: String(row.mapped_cid),
    createdAt: toDate(row.created_at),
  }
}

function toSignature(row: Row): SignatureRecord {
  return {
    tenantId: String(row.tenant_id),
    network: row.network as Network,
    cid: String(row.cid),
    signature: String(row.signature),
    address: String(row.address),
    createdAt: toDate(row.created_at),
  }
}

function toDomain(row: Row): DomainRecord {
  return {
    id: String(row.id),
    tenantId: String(row.tenant_id),
    domain: String(row.domain),
    verificationToken: String(row.verification_token),
    status: row.status as DomainStatus,
    createdAt: toDate(row.created_at),
    verifiedAt: row.verified_at === null ? null : toDate(row.verified_at),
    expiresAt: row.expires_at === null ? null : toDate(row.expires_at),
  }
}

/*
 * The cycle check and the write run under a transaction-scoped advisory lock on the tenant and
 * network, so two concurrent swaps that together would close a cycle are serialised: the second
 * sees the first's mapping and is refused.
 */
async function putSwap(
  client: SqlClient,
  swap: SwapRecord,
  events: readonly NewEvent[] | undefined,
): Promise<SwapRecord> {
  return client.transaction(async (tx) => {
    await tx.query(`select pg_advisory_xact_lock(hashtextextended('pinfold_swaps:' || $1 || ':' || $2, 0))`, [
      swap.tenantId,
      swap.network,
    ])
    const { rows } = await tx.query(
      `with recursive chain (cid, depth) as (
         select $3::text, 0
         union
         select s.mapped_cid, c.depth + 1 from swaps s join chain c on s.cid = c.cid
         where s.tenant_id = $1 and s.network = $2 and s.current and c.depth < 100000
       )
       select exists (select 1 from chain where cid = $4) as cycle`,
      [swap.tenantId, swap.network, swap.mappedCid, swap.cid],
    )
    if (rows[0]?.cycle === true) throw new PinfoldError('CONFLICT', 'this swap would create a cycle of swaps')
    await tx.query('update swaps set current = false where tenant_id = $1 and network = $2 and cid = $3 and current', [
      swap.tenantId,
      swap.network,
      swap.cid,
    ])
    const inserted = await tx.query(
      `insert into swaps (${SWAP_COLUMNS}) values ($1, $2, $3, $4, $5::timestamptz) returning ${SWAP_COLUMNS}`,
      [swap.tenantId, swap.network, swap.cid, swap.mappedCid, swap.createdAt.toISOString()],
    )
    await appendEvents(tx, events)
    return toSwap(inserted.rows[0]!)
  })
}

async function getSwap(
  db: Queryable,
  tenantId: string,
  network: Network,
  cid: string,
): Promise<SwapRecord | undefined> {
  const { rows } = await db.query(
    `select ${SWAP_COLUMNS} from swaps where tenant_id = $1 and network = $2 and cid = $3 and current`,
    [tenantId, network, cid],
  )
  return rows[0] && toSwap(rows[0])
}

async function listSwapHistory(db: Queryable, tenantId: string, network: Network, cid: string): Promise<SwapRecord[]> {
  const { rows } = await db.query(
    `select ${SWAP_COLUMNS} from swaps where tenant_id = $1 and network = $2 and cid = $3
     order by created_at desc, seq desc`,
    [tenantId, network, cid],
  )
  return rows.map(toSwap)
}

async function deleteSwap(db: Queryable, tenantId: string, network: Network, cid: string): Promise<boolean> {
  const { rows } = await db.query(
    'update swaps set current = false where tenant_id = $1 and network = $2 and cid = $3 and current returning seq',
    [tenantId, network, cid],
  )
  return rows.length > 0
}

async function addSignature(db: Queryable, signature: SignatureRecord): Promise<SignatureRecord> {
  const { rows } = await db.query(
    `insert into cid_signatures (${SIGNATURE_COLUMNS}) values ($1, $2, $3, $4, $5, $6::timestamptz)
     on conflict do nothing returning ${SIGNATURE_COLUMNS}`,
    [
      signature.tenantId,
      signature.network,
      signature.cid,
      signature.signature,
      signature.address,
      signature.createdAt.toISOString(),
    ],
  )
  if (!rows[0]) throw new PinfoldError('CONFLICT', 'this CID already has a signature')
  return toSignature(rows[0])
}

async function getSignature(
  db: Queryable,
  tenantId: string,
  network: Network,
  cid: string,
): Promise<SignatureRecord | undefined> {
  const { rows } = await db.query(
    `select ${SIGNATURE_COLUMNS} from cid_signatures where tenant_id = $1 and network = $2 and cid = $3`,
    [tenantId, network, cid],
  )
  return rows[0] && toSignature(rows[0])
}

async function deleteSignature(db: Queryable, tenantId: string, network: Network, cid: string): Promise<boolean> {
  const { rows } = await db.query(
    'delete from cid_signatures where tenant_id = $1 and network = $2 and cid = $3 returning cid',
    [tenantId, network, cid],
  )
  return rows.length > 0
}

/**
 * Lapsed pending claims of the name go first, then the insert, which only happens while no claim
 * of the name is active; the unique indexes settle races (one active claim per name, one claim
 * per tenant and name).
 */
async function createDomain(
  client: SqlClient,
  domain: DomainRecord,
  events: readonly NewEvent[] | undefined,
): Promise<DomainRecord> {
  return client.transaction(async (tx) => {
    await tx.query(
      `delete from gateway_domains
       where domain = $1 and status = 'pending_ownership' and expires_at <= $2::timestamptz`,
      [domain.domain, domain.createdAt.toISOString()],
    )
    const { rows } = await tx.query(
      `insert into gateway_domains (${DOMAIN_COLUMNS})
       select $1, $2, $3, $4, $5, $6::timestamptz, $7::timestamptz, $8::timestamptz
       where not exists (select 1 from gateway_domains where domain = $3 and status = 'active')
       returning ${DOMAIN_COLUMNS}`,
      [
        domain.id,
        domain.tenantId,
        domain.domain,
        domain.verificationToken,
        domain.status,
        domain.createdAt.toISOString(),
        domain.verifiedAt?.toISOString() ?? null,
        domain.expiresAt?.toISOString() ?? null,
      ],
    )
    if (!rows[0]) throw new PinfoldError('CONFLICT', `${domain.domain} is already registered`)
    await appendEvents(tx, events)
    return toDomain(rows[0])
  })
}

async function getDomain(db: Queryable, tenantId: string, id: string): Promise<DomainRecord | undefined> {
  if (!isUuid(id)) return undefined
  const { rows } = await db.query(`select ${DOMAIN_COLUMNS} from gateway_domains where id = $1 and tenant_id = $2`, [
    id,
    tenantId,
  ])
  return rows[0] && toDomain(rows[0])
}

async function listDomains(db: Queryable, tenantId: string): Promise<DomainRecord[]> {
  const { rows } = await db.query(
    `select ${DOMAIN_COLUMNS} from gateway_domains where tenant_id = $1 order by created_at, id`,
    [tenantId],
  )
  return rows.map(toDomain)
}

async function findDomain(db: Queryable, domain: string, now: Date): Promise<DomainRecord | undefined> {
  const { rows } = await db.query(
    `select ${DOMAIN_COLUMNS} from gateway_domains
     where domain = $1 and (status = 'active' or expires_at is null or expires_at > $2::timestamptz)
     order by status = 'active' desc, created_at desc, id desc limit 1`,
    [domain, now.toISOString()],
  )
  return rows[0] && toDomain(rows[0])
}

async function activateDomain(
  db: Queryable,
  tenantId: string,
  id: string,
  verifiedAt: Date,
): Promise<DomainRecord | undefined> {
  if (!isUuid(id)) return undefined
  // coalesce: a domain activated twice keeps its first verification moment
  const { rows } = await db.query(
    `update gateway_domains
     set status = 'active', verified_at = coalesce(verified_at, $3::timestamptz), expires_at = null
     where id = $1 and tenant_id = $2 returning ${DOMAIN_COLUMNS}`,
    [id, tenantId, verifiedAt.toISOString()],
  )
  return rows[0] && toDomain(rows[0])
}

async function deleteDomain(db: Queryable, tenantId: string, id: string): Promise<boolean> {
  if (!isUuid(id)) return false
  const { rows } = await db.query('delete from gateway_domains where id = $1 and tenant_id = $2 returning id', [
    id,
    tenantId,
  ])
  return rows.length > 0
}

async function listExpiredFiles(db: Queryable, now: Date, limit: number): Promise<FileRecord[]> {
  const { rows } = await db.query(
    `select ${FILE_COLUMNS} from files where expires_at is not null and expires_at <= $1::timestamptz
     order by expires_at, id limit $2`,
    [now.toISOString(), limit],
  )
  return rows.map(toFileRecord)
}

/** The record store's gateway part over `client`, each call guarded (see `guarded`). */
export function postgresGatewayRecords(client: SqlClient): GatewayRecordStore {
  return {
    putSwap: (swap, options) => guarded('putSwap', options, () => putSwap(client, swap, options?.events)),
    getSwap: (tenantId, network, cid, options) =>
      guarded('getSwap', options, () => getSwap(client, tenantId, network, cid)),
    listSwapHistory: (tenantId, network, cid, options) =>
      guarded('listSwapHistory', options, () => listSwapHistory(client, tenantId, network, cid)),
    deleteSwap: (tenantId, network, cid, options) =>
      guarded('deleteSwap', options, () =>
        withEvents(client, options?.events, (db) => deleteSwap(db, tenantId, network, cid), Boolean),
      ),
    addSignature: (signature, options) =>
      guarded('addSignature', options, () =>
        withEvents(
          client,
          options?.events,
          (db) => addSignature(db, signature),
          () => true,
        ),
      ),
    getSignature: (tenantId, network, cid, options) =>
      guarded('getSignature', options, () => getSignature(client, tenantId, network, cid)),
    deleteSignature: (tenantId, network, cid, options) =>
      guarded('deleteSignature', options, () =>
        withEvents(client, options?.events, (db) => deleteSignature(db, tenantId, network, cid), Boolean),
      ),
    createDomain: (domain, options) =>
      guarded('createDomain', options, () => createDomain(client, domain, options?.events)),
    getDomain: (tenantId, id, options) => guarded('getDomain', options, () => getDomain(client, tenantId, id)),
    listDomains: (tenantId, options) => guarded('listDomains', options, () => listDomains(client, tenantId)),
    findDomain: (domain, now, options) => guarded('findDomain', options, () => findDomain(client, domain, now)),
    activateDomain: (tenantId, id, verifiedAt, options) =>
      guarded('activateDomain', options, () =>
        withEvents(
          client,
          options?.events,
          (db) => activateDomain(db, tenantId, id, verifiedAt),
          // activated by this call, not before: a domain activated twice keeps its first verification
          (domain) => domain?.verifiedAt?.getTime() === verifiedAt.getTime(),
        ),
      ),
    deleteDomain: (tenantId, id, options) =>
      guarded('deleteDomain', options, () =>
        withEvents(client, options?.events, (db) => deleteDomain(db, tenantId, id), Boolean),
      ),
    listExpiredFiles: (now, limit, options) =>
      guarded('listExpiredFiles', options, () => listExpiredFiles(client, now, limit)),
  }
}
