import { type CallOptions, invalid, type RecordStore, throwIfAborted } from '@pinfold/core'
import { toPinfoldError } from './errors.js'
import * as files from './files.js'
import * as groups from './groups.js'
import type { SqlClient } from './queryable.js'

export interface PostgresRecordStoreOptions {
  /** From `fromPgPool(pool)` or `fromPGlite(db)`; the schema must be migrated (see `migrate`). */
  client: SqlClient
}

/**
 * A {@link RecordStore} on PostgreSQL. Every contract of the port is enforced by the database
 * (row locks, constraints, single-statement updates), so it holds across server processes.
 *
 * An aborted signal is honoured before a call starts and, for transactions, before COMMIT; a
 * statement already sent runs to completion.
 */
export function createPostgresRecordStore({ client }: PostgresRecordStoreOptions): RecordStore {
  if (typeof client?.query !== 'function' || typeof client.transaction !== 'function') {
    throw invalid('@pinfold/adapter-postgres: option `client` must come from fromPgPool(pool) or fromPGlite(db)')
  }

  async function run<T>(action: string, options: CallOptions | undefined, work: () => Promise<T>): Promise<T> {
    throwIfAborted(options?.signal)
    try {
      return await work()
    } catch (err) {
      throw toPinfoldError(err, action)
    }
  }

  return {
    createFile: (file, content, options) =>
      run('createFile', options, () => files.createFile(client, file, content, options)),
    getFile: (tenantId, network, id, options) =>
      run('getFile', options, () => files.getFile(client, tenantId, network, id)),
    listFiles: (tenantId, network, filter, page, options) =>
      run('listFiles', options, () => files.listFiles(client, tenantId, network, filter, page)),
    updateFile: (tenantId, network, id, patch, options) =>
      run('updateFile', options, () => files.updateFile(client, tenantId, network, id, patch)),
    deleteFile: (tenantId, network, id, options) =>
      run('deleteFile', options, () => files.deleteFile(client, tenantId, network, id, options)),
    getContent: (cid, options) => run('getContent', options, () => files.getContent(client, cid)),
    createGroup: (group, options) => run('createGroup', options, () => groups.createGroup(client, group)),
    getGroup: (tenantId, network, id, options) =>
      run('getGroup', options, () => groups.getGroup(client, tenantId, network, id)),
    listGroups: (tenantId, network, filter, page, options) =>
      run('listGroups', options, () => groups.listGroups(client, tenantId, network, filter, page)),
    updateGroup: (tenantId, network, id, patch, options) =>
      run('updateGroup', options, () => groups.updateGroup(client, tenantId, network, id, patch)),
    deleteGroup: (tenantId, network, id, options) =>
      run('deleteGroup', options, () => groups.deleteGroup(client, tenantId, network, id)),
  }
}
