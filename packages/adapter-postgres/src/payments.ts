import type { PaymentRecordStore } from '@pinfold/interface'
import {
  notFound,
  type Page,
  type PageRequest,
  type PaymentCidRecord,
  type PaymentInstructionFilter,
  type PaymentInstructionPatch,
  type PaymentInstructionRecord,
  type PaymentTerms,
  PinfoldError,
  type PricedCid,
} from '@pinfold/interface'
import { guarded } from './errors.js'
import { withEvents } from './events.js'
import { keyset, toPage } from './paging.js'
import type { Queryable, Row, SqlClient } from './queryable.js'
import { toDate } from './rows.js'
import { isUuid, likePrefix, Params } from './sql.js'

const INSTRUCTION_COLUMNS = 'id, tenant_id, version, name, description, payment_requirements, created_at'
const CID_COLUMNS = 'instruction_id, cid, created_at'
const INSTRUCTION_FK = 'payment_instruction_cids_instruction_fk'

function toInstruction(row: Row): PaymentInstructionRecord {
  const terms =
    typeof row.payment_requirements === 'string' ? JSON.parse(row.payment_requirements) : row.payment_requirements
  return {
    id: String(row.id),
    tenantId: String(row.tenant_id),
    version: Number(row.version),
    paymentRequirements: terms as PaymentTerms[],
    name: String(row.name),
    description: row.description === null ? null : String(row.description),
    createdAt: toDate(row.created_at),
  }
}

function toCid(row: Row): PaymentCidRecord {
  return { instructionId: String(row.instruction_id), cid: String(row.cid), createdAt: toDate(row.created_at) }
}

const isForeignKey = (err: unknown) =>
  typeof err === 'object' &&
  err !== null &&
  // 23503 foreign_key_violation (insert of an attachment), 23001 restrict_violation (delete of the instruction)
  ((err as { code?: unknown }).code === '23503' || (err as { code?: unknown }).code === '23001') &&
  (err as { constraint?: unknown }).constraint === INSTRUCTION_FK

async function createPaymentInstruction(
  db: Queryable,
  instruction: PaymentInstructionRecord,
): Promise<PaymentInstructionRecord> {
  const { rows } = await db.query(
    `insert into payment_instructions (${INSTRUCTION_COLUMNS})
     values ($1, $2, $3, $4, $5, $6::jsonb, $7::timestamptz) returning ${INSTRUCTION_COLUMNS}`,
    [
      instruction.id,
      instruction.tenantId,
      instruction.version,
      instruction.name,
      instruction.description,
      JSON.stringify(instruction.paymentRequirements),
      instruction.createdAt.toISOString(),
    ],
  )
  return toInstruction(rows[0]!)
}

async function getPaymentInstruction(
  db: Queryable,
  tenantId: string,
  id: string,
): Promise<PaymentInstructionRecord | undefined> {
  if (!isUuid(id)) return undefined
  const { rows } = await db.query(
    `select ${INSTRUCTION_COLUMNS} from payment_instructions where id = $1 and tenant_id = $2`,
    [id, tenantId],
  )
  return rows[0] && toInstruction(rows[0])
}

async function listPaymentInstructions(
  db: Queryable,
  tenantId: string,
  filter: PaymentInstructionFilter,
  page: PageRequest,
): Promise<Page<PaymentInstructionRecord>> {
  if (filter.id !== undefined && !isUuid(filter.id)) return { items: [], hasMore: false }
  const params = new Params()
  const conditions = [`tenant_id = ${params.add(tenantId)}`]
  if (filter.id !== undefined) conditions.push(`id = ${params.add(filter.id)}`)
  if (filter.namePrefix !== undefined) conditions.push(`name like ${params.add(likePrefix(filter.namePrefix))}`)
  if (filter.cid !== undefined) {
    conditions.push(
      `id in (select instruction_id from payment_instruction_cids where tenant_id = ${params.add(tenantId)} and cid = ${params.add(filter.cid)})`,
    )
  }
  const { condition, orderAndLimit } = keyset(page, params)
  if (condition) conditions.push(condition)
  const { rows } = await db.query(
    `select ${INSTRUCTION_COLUMNS} from payment_instructions where ${conditions.join(' and ')} ${orderAndLimit}`,
    params.values,
  )
  return toPage(rows.map(toInstruction), page)
}

/** One statement: the patch and `version + 1` land together, so concurrent updates each get their own version. */
async function updatePaymentInstruction(
  db: Queryable,
  tenantId: string,
  id: string,
  patch: PaymentInstructionPatch,
): Promise<PaymentInstructionRecord | undefined> {
  if (!isUuid(id)) return undefined
  const params = new Params()
  const assignments = ['version = version + 1']
  if (patch.name !== undefined) assignments.push(`name = ${params.add(patch.name)}`)
  if (patch.description !== undefined) assignments.push(`description = ${params.add(patch.description)}`)
  if (patch.paymentRequirements !== undefined) {
    assignments.push(`payment_requirements = ${params.add(JSON.stringify(patch.paymentRequirements))}::jsonb`)
  }
  const { rows } = await db.query(
    `update payment_instructions set ${assignments.join(', ')}
     where id = ${params.add(id)} and tenant_id = ${params.add(tenantId)}
     returning ${INSTRUCTION_COLUMNS}`,
    params.values,
  )
  return rows[0] && toInstruction(rows[0])
}

/** payment_instruction_cids_instruction_fk (`on delete restrict`) refuses while a CID is attached. */
async function deletePaymentInstruction(db: Queryable, tenantId: string, id: string): Promise<boolean> {
  if (!isUuid(id)) return false
  try {
    const { rows } = await db.query('delete from payment_instructions where id = $1 and tenant_id = $2 returning id', [
      id,
      tenantId,
    ])
    return rows.length > 0
  } catch (err) {
    if (isForeignKey(err)) {
      throw new PinfoldError('CONFLICT', 'the payment instruction still has CIDs attached; remove them first', {
        cause: err,
      })
    }
    throw err
  }
}

async function attachPaymentCid(
  db: Queryable,
  tenantId: string,
  instructionId: string,
  cid: string,
  attachedAt: Date,
): Promise<PaymentCidRecord> {
  if (!(await getPaymentInstruction(db, tenantId, instructionId))) throw notFound('payment instruction')
  let inserted: Row[]
  try {
    // The foreign key (checked under a key-share lock) makes this atomic with a concurrent delete of
    // the instruction; the primary key (tenant_id, cid) with "do nothing" makes concurrent attaches
    // of one CID to two instructions leave exactly one row.
    ;({ rows: inserted } = await db.query(
      `insert into payment_instruction_cids (tenant_id, cid, instruction_id, created_at)
       select $1, $2, $3, $4::timestamptz
       where exists (select 1 from files where cid = $2 and tenant_id = $1)
       on conflict (tenant_id, cid) do nothing
       returning ${CID_COLUMNS}`,
      [tenantId, cid, instructionId, attachedAt.toISOString()],
    ))
  } catch (err) {
    if (isForeignKey(err)) throw new PinfoldError('NOT_FOUND', 'payment instruction not found', { cause: err })
    throw err
  }
  if (inserted[0]) return toCid(inserted[0])
  const { rows } = await db.query(
    `select ${CID_COLUMNS} from payment_instruction_cids where tenant_id = $1 and cid = $2`,
    [tenantId, cid],
  )
  const existing = rows[0] && toCid(rows[0])
  if (existing?.instructionId === instructionId) return existing
  if (existing) throw new PinfoldError('CONFLICT', `CID ${cid} is already attached to another payment instruction`)
  throw new PinfoldError('NOT_FOUND', `no file with CID ${cid} found`)
}

async function detachPaymentCid(db: Queryable, tenantId: string, instructionId: string, cid: string): Promise<boolean> {
  if (!isUuid(instructionId)) return false
  const { rows } = await db.query(
    'delete from payment_instruction_cids where tenant_id = $1 and cid = $2 and instruction_id = $3 returning cid',
    [tenantId, cid, instructionId],
  )
  return rows.length > 0
}

async function listPaymentCids(
  db: Queryable,
  tenantId: string,
  instructionId: string,
  page: PageRequest,
): Promise<Page<PaymentCidRecord> | undefined> {
  if (!(await getPaymentInstruction(db, tenantId, instructionId))) return undefined
  const params = new Params()
  const conditions = [`instruction_id = ${params.add(instructionId)}`, `tenant_id = ${params.add(tenantId)}`]
  const direction = page.order === 'DESC' ? 'desc' : 'asc'
  if (page.after) {
    const comparison = page.order === 'DESC' ? '<' : '>'
    conditions.push(
      `(created_at, cid) ${comparison} (${params.add(page.after.createdAt.toISOString())}::timestamptz, ${params.add(page.after.id)})`,
    )
  }
  const { rows } = await db.query(
    `select ${CID_COLUMNS} from payment_instruction_cids where ${conditions.join(' and ')}
     order by created_at ${direction}, cid ${direction} limit ${params.add(page.limit + 1)}`,
    params.values,
  )
  return toPage(rows.map(toCid), page)
}

async function findPricedCid(db: Queryable, cid: string): Promise<PricedCid | undefined> {
  const { rows } = await db.query(
    `select ${INSTRUCTION_COLUMNS.split(', ')
      .map((column) => `i.${column}`)
      .join(', ')}, a.created_at as attached_at
     from payment_instruction_cids a
     join payment_instructions i on i.id = a.instruction_id and i.tenant_id = a.tenant_id
     where a.cid = $1 and exists (select 1 from files f where f.cid = a.cid and f.tenant_id = a.tenant_id)
     order by a.created_at, a.instruction_id
     limit 1`,
    [cid],
  )
  return rows[0] && { instruction: toInstruction(rows[0]), attachedAt: toDate(rows[0].attached_at) }
}

const PRUNE_EVERY_MS = 60_000

/**
 * `claimPaymentNonce` for one store. The primary key (payer, nonce) decides: of concurrent inserts,
 * in any number of processes, exactly one returns a row. About once a minute it first forgets claims
 * whose authorization expired over an hour ago; no verifier accepts those any more.
 */
function createNonceClaimer(db: Queryable) {
  let lastPrune = 0
  return async (payer: string, nonce: string, expiresAt: Date): Promise<'claimed' | 'duplicate'> => {
    if (Date.now() - lastPrune > PRUNE_EVERY_MS) {
      lastPrune = Date.now()
      await db.query("delete from payment_nonces where expires_at < now() - interval '1 hour'")
    }
    const { rows } = await db.query(
      `insert into payment_nonces (payer, nonce, expires_at) values ($1, $2, $3::timestamptz)
       on conflict (payer, nonce) do nothing returning payer`,
      [payer, nonce, expiresAt.toISOString()],
    )
    return rows.length > 0 ? 'claimed' : 'duplicate'
  }
}

/** The record store's payments part over `client`, each call guarded (see `guarded`). */
export function postgresPaymentRecords(client: SqlClient): PaymentRecordStore {
  const claimNonce = createNonceClaimer(client)
  return {
    createPaymentInstruction: (instruction, options) =>
      guarded('createPaymentInstruction', options, () =>
        withEvents(
          client,
          options?.events,
          (db) => createPaymentInstruction(db, instruction),
          () => true,
        ),
      ),
    getPaymentInstruction: (tenantId, id, options) =>
      guarded('getPaymentInstruction', options, () => getPaymentInstruction(client, tenantId, id)),
    listPaymentInstructions: (tenantId, filter, page, options) =>
      guarded('listPaymentInstructions', options, () => listPaymentInstructions(client, tenantId, filter, page)),
    updatePaymentInstruction: (tenantId, id, patch, options) =>
      guarded('updatePaymentInstruction', options, () =>
        withEvents(client, options?.events, (db) => updatePaymentInstruction(db, tenantId, id, patch), Boolean),
      ),
    deletePaymentInstruction: (tenantId, id, options) =>
      guarded('deletePaymentInstruction', options, () =>
        withEvents(client, options?.events, (db) => deletePaymentInstruction(db, tenantId, id), Boolean),
      ),
    attachPaymentCid: (tenantId, instructionId, cid, attachedAt, options) =>
      guarded('attachPaymentCid', options, () =>
        withEvents(
          client,
          options?.events,
          (db) => attachPaymentCid(db, tenantId, instructionId, cid, attachedAt),
          // attached by this call: attaching again answers the earlier attachment, and records nothing
          (attached) => attached.createdAt.getTime() === attachedAt.getTime(),
        ),
      ),
    detachPaymentCid: (tenantId, instructionId, cid, options) =>
      guarded('detachPaymentCid', options, () =>
        withEvents(client, options?.events, (db) => detachPaymentCid(db, tenantId, instructionId, cid), Boolean),
      ),
    listPaymentCids: (tenantId, instructionId, page, options) =>
      guarded('listPaymentCids', options, () => listPaymentCids(client, tenantId, instructionId, page)),
    findPricedCid: (cid, options) => guarded('findPricedCid', options, () => findPricedCid(client, cid)),
    claimPaymentNonce: (payer, nonce, expiresAt, options) =>
      guarded('claimPaymentNonce', options, () => claimNonce(payer, nonce, expiresAt)),
  }
}
