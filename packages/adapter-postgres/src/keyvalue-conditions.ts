import type { KeyvalueCondition } from '@pinfold/interface'
import type { Params } from './sql.js'

/**
 * One legacy keyvalue condition as SQL over `files.keyvalues` (the contract is on
 * `KeyvalueCondition`; adapter-memory's `memory-keyvalue-conditions.ts` is the same in TypeScript).
 * A missing key reads as NULL, so no comparison holds for it, `ne` and `not…` included. Numbers
 * compare as `numeric`, guarded by a pattern inside CASE (PostgreSQL may evaluate the conditions of
 * a WHERE in any order, and a bare cast of `'abc'` fails the whole query). Text compares under
 * `COLLATE "C"`: by code point, whatever the database's locale.
 */
const DECIMAL = '^-?[0-9]+(\\.[0-9]+)?([eE][+-]?[0-9]+)?$'

const COMPARISONS = { eq: '=', ne: '<>', gt: '>', gte: '>=', lt: '<', lte: '<=' } as const

export function keyvalueConditionSql(condition: KeyvalueCondition, params: Params): string {
  const { op, value, secondValue } = condition
  const numeric = typeof value === 'number'
  // text equality is containment (stored values are JSON strings), which files_keyvalues_idx serves
  if (op === 'eq' && !numeric) return `keyvalues @> ${params.add(JSON.stringify({ [condition.key]: value }))}::jsonb`
  const raw = `(keyvalues ->> ${params.add(condition.key)})`
  if (op === 'like' || op === 'notLike' || op === 'iLike' || op === 'notILike') {
    const like = op === 'iLike' || op === 'notILike' ? 'ilike' : 'like'
    const negate = op.startsWith('not') ? 'not ' : ''
    return `${raw} ${negate}${like} ${params.add(String(value))}`
  }
  const stored = numeric
    ? `(case when ${raw} ~ ${params.add(DECIMAL)} then ${raw}::numeric end)`
    : `(${raw} collate "C")`
  const bound = (v: string | number) => (numeric ? `${params.add(v)}::numeric` : `(${params.add(v)}::text collate "C")`)
  if (op === 'between' || op === 'notBetween') {
    const negate = op === 'notBetween' ? 'not ' : ''
    return `${stored} ${negate}between ${bound(value)} and ${bound(secondValue ?? value)}`
  }
  return `${stored} ${COMPARISONS[op]} ${bound(value)}`
}
