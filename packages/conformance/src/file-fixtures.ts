import type { FileFilter, FileRecord, Network, NewFile, SortOrder } from '@pinfold/interface'
import { expect } from 'vitest'
import { contentFor, fileBuilder, TENANT } from './fixtures.js'
import type { RecordStoreHarness } from './record-store.js'

const newFile = fileBuilder()

/**
 * What the files and groups parts' suites do with files: add one, list them all, and check what
 * persisted through the harness's probe. `current` answers the running test's harness.
 */
export function fileFixtures(current: () => RecordStoreHarness) {
  return {
    async expectCounts(contents: number, files: number): Promise<void> {
      const { probe } = current()
      if (!probe) return
      expect({ contents: await probe.countContents(), files: await probe.countFiles() }).toEqual({ contents, files })
    },
    async addFile(fields: Partial<NewFile> = {}): Promise<FileRecord> {
      const file = newFile(fields)
      return (await current().store.files.createFile(file, contentFor(file))).file
    },
    listAll: (filter: FileFilter, order: SortOrder = 'ASC', tenantId = TENANT, network: Network = 'public') =>
      current().store.files.listFiles(tenantId, network, filter, { limit: 1000, order }),
  }
}
