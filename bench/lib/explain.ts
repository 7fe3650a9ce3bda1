import type { Queryable } from '@pinfold/adapter-postgres'

interface PlanNode {
  'Node Type': string
  'Index Name'?: string
  Plans?: PlanNode[]
}

/**
 * The plan of a statement as a compact path from the top node down to the scans, e.g.
 * `Limit › Index Scan (files_keyset_idx)` or `Limit › Sort › Bitmap Heap Scan › Bitmap Index Scan
 * (files_group_idx)`: enough to tell an index walk from a sort of every match or a Seq Scan.
 */
export async function planOf(db: Queryable, text: string, params: unknown[]): Promise<string> {
  const { rows } = await db.query(`explain (format json) ${text}`, params)
  const raw = rows[0]!['QUERY PLAN']
  const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan: PlanNode }[]
  const parts: string[] = []
  let node: PlanNode | undefined = plan[0]!.Plan
  while (node) {
    parts.push(node['Index Name'] ? `${node['Node Type']} (${node['Index Name']})` : node['Node Type'])
    node = node.Plans?.[0]
  }
  return parts.join(' › ')
}
