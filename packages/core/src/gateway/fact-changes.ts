import type { FactChange, FileRecordStore, GatewayRecordStore, RecordStore } from '@pinfold/interface'
import type { GatewayReadCache } from './read-cache.js'

/**
 * The record store with every write that can change what the gateway serves telling the read cache
 * (`read-cache.ts`), whichever operation makes it (the files API, the legacy unpin, the expiry
 * sweep, swaps): a file deleted or its expiry changed changes which content is served and whose
 * swaps apply; a file added or a swap put or removed changes where swaps send a CID. The cache is
 * told after the write, whether it succeeded or not (a failed write may still have committed).
 */
export function invalidatingRecords(records: RecordStore, cache: Pick<GatewayReadCache, 'invalidate'>): RecordStore {
  const tell = async <T>(write: Promise<T>, ...changes: FactChange[]): Promise<T> => {
    try {
      return await write
    } finally {
      for (const change of changes) cache.invalidate(change)
    }
  }
  const { files, gateway } = records
  const invalidatingFiles: FileRecordStore = {
    ...files,
    createFile: (...args) => tell(files.createFile(...args), 'swaps'),
    deleteFile: (...args) => tell(files.deleteFile(...args), 'served', 'swaps'),
    updateFile: (tenantId, network, id, patch, options) => {
      const write = files.updateFile(tenantId, network, id, patch, options)
      return patch.expiresAt === undefined ? write : tell(write, 'served', 'swaps')
    },
  }
  const invalidatingGateway: GatewayRecordStore = {
    ...gateway,
    putSwap: (...args) => tell(gateway.putSwap(...args), 'swaps'),
    deleteSwap: (...args) => tell(gateway.deleteSwap(...args), 'swaps'),
  }
  return { ...records, files: invalidatingFiles, gateway: invalidatingGateway }
}
