import type { DenyRuleRecord, DenyRuleRecordStore } from '@pinfold/interface'
import { guarded } from './errors.js'
import { appendEvents } from './events.js'
import type { Row, SqlClient } from './queryable.js'
import { toDate } from './rows.js'

function toDenyRule(row: Row): DenyRuleRecord {
  return { id: String(row.id), rule: String(row.rule), line: Number(row.line), createdAt: toDate(row.created_at) }
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
          await appendEvents(tx, options?.events)
          return toDenyRule(rows[0]!)
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
  }
}
