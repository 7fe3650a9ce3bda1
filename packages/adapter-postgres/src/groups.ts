import type {
  GroupFilter,
  GroupPatch,
  GroupRecord,
  GroupRecordStore,
  Network,
  Page,
  PageRequest,
} from '@pinfold/interface'
import { guarded } from './errors.js'
import { withEvents } from './events.js'
import { keyset, toPage } from './paging.js'
import type { Queryable, SqlClient } from './queryable.js'
import { GROUP_COLUMNS, toGroupRecord } from './rows.js'
import { containsIgnoringCase, isUuid, likePrefix, Params } from './sql.js'

async function createGroup(db: Queryable, group: GroupRecord): Promise<GroupRecord> {
  const { rows } = await db.query(
    `insert into groups (${GROUP_COLUMNS}) values ($1, $2, $3, $4, $5, $6::timestamptz) returning ${GROUP_COLUMNS}`,
    [group.id, group.tenantId, group.network, group.name, group.isPublic, group.createdAt.toISOString()],
  )
  return toGroupRecord(rows[0]!)
}

async function getGroup(
  db: Queryable,
  tenantId: string,
  network: Network,
  id: string,
): Promise<GroupRecord | undefined> {
  if (!isUuid(id)) return undefined
  const { rows } = await db.query(
    `select ${GROUP_COLUMNS} from groups where id = $1 and tenant_id = $2 and network = $3`,
    [id, tenantId, network],
  )
  return rows[0] && toGroupRecord(rows[0])
}

async function listGroups(
  db: Queryable,
  tenantId: string,
  network: Network,
  filter: GroupFilter,
  page: PageRequest,
): Promise<Page<GroupRecord>> {
  const params = new Params()
  const conditions = [`tenant_id = ${params.add(tenantId)}`, `network = ${params.add(network)}`]
  if (filter.namePrefix !== undefined) conditions.push(`name like ${params.add(likePrefix(filter.namePrefix))}`)
  if (filter.isPublic !== undefined) conditions.push(`is_public = ${params.add(filter.isPublic)}`)
  if (filter.nameContains !== undefined) conditions.push(containsIgnoringCase('name', filter.nameContains, params))
  const { condition, orderAndLimit } = keyset(page, params)
  if (condition) conditions.push(condition)
  const { rows } = await db.query(
    `select ${GROUP_COLUMNS} from groups where ${conditions.join(' and ')} ${orderAndLimit}`,
    params.values,
  )
  return toPage(rows.map(toGroupRecord), page)
}

async function updateGroup(
  db: Queryable,
  tenantId: string,
  network: Network,
  id: string,
  patch: GroupPatch,
): Promise<GroupRecord | undefined> {
  if (!isUuid(id)) return undefined
  const params = new Params()
  const assignments: string[] = []
  if (patch.name !== undefined) assignments.push(`name = ${params.add(patch.name)}`)
  if (patch.isPublic !== undefined) assignments.push(`is_public = ${params.add(patch.isPublic)}`)
  if (assignments.length === 0) return getGroup(db, tenantId, network, id)
  const { rows } = await db.query(
    `update groups set ${assignments.join(', ')}
     where id = ${params.add(id)} and tenant_id = ${params.add(tenantId)} and network = ${params.add(network)}
     returning ${GROUP_COLUMNS}`,
    params.values,
  )
  return rows[0] && toGroupRecord(rows[0])
}

/** files_group_fk (`on delete set null (group_id)`) ungroups the group's files in the same statement. */
async function deleteGroup(db: Queryable, tenantId: string, network: Network, id: string): Promise<boolean> {
  if (!isUuid(id)) return false
  const { rows } = await db.query('delete from groups where id = $1 and tenant_id = $2 and network = $3 returning id', [
    id,
    tenantId,
    network,
  ])
  return rows.length > 0
}

/** The record store's groups part over `client`, each call guarded (see `guarded`). */
export function postgresGroupRecords(client: SqlClient): GroupRecordStore {
  return {
    createGroup: (group, options) =>
      guarded('createGroup', options, () =>
        withEvents(
          client,
          options?.events,
          (db) => createGroup(db, group),
          () => true,
        ),
      ),
    getGroup: (tenantId, network, id, options) =>
      guarded('getGroup', options, () => getGroup(client, tenantId, network, id)),
    listGroups: (tenantId, network, filter, page, options) =>
      guarded('listGroups', options, () => listGroups(client, tenantId, network, filter, page)),
    updateGroup: (tenantId, network, id, patch, options) =>
      guarded('updateGroup', options, () =>
        withEvents(client, options?.events, (db) => updateGroup(db, tenantId, network, id, patch), Boolean),
      ),
    deleteGroup: (tenantId, network, id, options) =>
      guarded('deleteGroup', options, () =>
        withEvents(client, options?.events, (db) => deleteGroup(db, tenantId, network, id), Boolean),
      ),
  }
}
