import type { BlockedNotice, DenyRuleRecord, DenyRuleRecordStore, TenantDenyRuleRecord } from '@pinfold/interface'
import { guarded } from './errors.js'
import { appendEvents } from './events.js'
import type { Queryable, Row, SqlClient } from './queryable.js'
import { toDate } from './rows.js'

/**
 * Records the notices not told before and appends their events, in the caller's transaction
 * (`recordBlockedNotices`, a file's arrival: `CreateFileOptions.blockedNotices`, and an operator
 * rule's add: `AddDenyRuleOptions.blockedNotices`); answers them.
 */
export async function recordNotices(tx: Queryable, notices: readonly BlockedNotice[]): Promise<BlockedNotice[]> {
  const fresh: BlockedNotice[] = []
  // one insert per notice: its answer says whether this transaction is the one that records it
  for (const notice of notices) {
    const { rows } = await tx.query(
      `insert into blocked_notices (tenant_id, cid, list, line) values ($1, $2, $3, $4)
       on conflict do nothing returning tenant_id`,
      [notice.tenantId, notice.cid, notice.list, notice.line],
    )
    if (rows.length > 0) fresh.push(notice)
  }
  await appendEvents(
    tx,
    fresh.map((notice) => notice.event),
  )
  return fresh
}

function toDenyRule(row: Row): DenyRuleRecord {
  return { id: String(row.id), rule: String(row.rule), line: Number(row.line), createdAt: toDate(row.created_at) }
}

function toTenantDenyRule(row: Row): TenantDenyRuleRecord {
  return { ...toDenyRule(row), tenantId: String(row.tenant_id) }
}

export function postgresDenyRuleRecords(client: SqlClient): DenyRuleRecordStore {
  return {
    addDenyRule: (rule, options) =>
      guarded('addDenyRule', options, () =>
        client.transaction(async (tx) => {
          const { rows } = await tx.query(
            'insert into deny_rules (id, rule, created_at) values ($1, $2, $3) returning line, id, rule, created_at',
            [rule.id, rule.rule, rule.createdAt.toISOString()],
          )
          const stored = toDenyRule(rows[0]!)
          await appendEvents(tx, options?.events)
          const notices = (options?.blockedNotices ?? []).map((notice) => ({ ...notice, line: stored.line }))
          await recordNotices(tx, notices)
          return stored
        }),
      ),
    listDenyRules: (options) =>
      guarded('listDenyRules', options, async () => {
        const { rows } = await client.query('select line, id, rule, created_at from deny_rules order by line')
        return rows.map(toDenyRule)
      }),
    removeDenyRule: (id, options) =>
      guarded('removeDenyRule', options, () =>
        client.transaction(async (tx) => {
          const { rows } = await tx.query('delete from deny_rules where id = $1 returning id', [id])
          if (rows.length === 0) return false
          await appendEvents(tx, options?.events)
          return true
        }),
      ),

    addTenantDenyRule: (rule, options) =>
      guarded('addTenantDenyRule', options, () =>
        client.transaction(async (tx) => {
          // the tenant's counter row is locked until commit: concurrent adds take lines in turn
          const counted = await tx.query(
            `insert into tenant_deny_rule_lines (tenant_id, last_line) values ($1, 1)
             on conflict (tenant_id) do update set last_line = tenant_deny_rule_lines.last_line + 1
             returning last_line`,
            [rule.tenantId],
          )
          const { rows } = await tx.query(
            `insert into tenant_deny_rules (tenant_id, line, id, rule, created_at) values ($1, $2, $3, $4, $5)
             returning tenant_id, line, id, rule, created_at`,
            [rule.tenantId, counted.rows[0]!.last_line, rule.id, rule.rule, rule.createdAt.toISOString()],
          )
          await appendEvents(tx, options?.events)
          return toTenantDenyRule(rows[0]!)
        }),
      ),
    listTenantDenyRules: (tenantId, options) =>
      guarded('listTenantDenyRules', options, async () => {
        const { rows } =
          tenantId === undefined
            ? await client.query(
                'select tenant_id, line, id, rule, created_at from tenant_deny_rules order by tenant_id, line',
              )
            : await client.query(
                'select tenant_id, line, id, rule, created_at from tenant_deny_rules where tenant_id = $1 order by line',
                [tenantId],
              )
        return rows.map(toTenantDenyRule)
      }),
    removeTenantDenyRule: (tenantId, id, options) =>
      guarded('removeTenantDenyRule', options, () =>
        client.transaction(async (tx) => {
          const { rows } = await tx.query(
            'delete from tenant_deny_rules where tenant_id = $1 and id = $2 returning id',
            [tenantId, id],
          )
          if (rows.length === 0) return false
          await appendEvents(tx, options?.events)
          return true
        }),
      ),

    recordBlockedNotices: (notices, options) =>
      guarded('recordBlockedNotices', options, () => client.transaction((tx) => recordNotices(tx, notices))),
    getBlockedScan: (options) =>
      guarded('getBlockedScan', options, async () => {
        const { rows } = await client.query(`select fingerprint, cursor from blocked_scan where id = 'held-roots'`)
        const row = rows[0]
        return row && { fingerprint: String(row.fingerprint), cursor: row.cursor === null ? null : String(row.cursor) }
      }),
    putBlockedScan: (state, options) =>
      guarded('putBlockedScan', options, async () => {
        await client.query(
          `insert into blocked_scan (id, fingerprint, cursor) values ('held-roots', $1, $2)
           on conflict (id) do update set fingerprint = excluded.fingerprint, cursor = excluded.cursor`,
          [state.fingerprint, state.cursor],
        )
      }),
  }
}
