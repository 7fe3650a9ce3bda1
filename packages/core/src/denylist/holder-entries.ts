import type { FileRecord } from '@pinfold/interface'

/** File ids one `content.blocked` entry names at most (the rule blocks them all). */
export const MAX_FILE_IDS = 100

/** What one `content.blocked` entry tells a tenant: a CID spelling it holds, and its first files. */
export interface HolderEntry {
  tenantId: string
  cid: string
  fileIds: string[]
}

/**
 * Files holding a blocked root as the entries they are told in: one per tenant and CID spelling,
 * each naming its first {@link MAX_FILE_IDS} files. Shared by an operator rule's add and the
 * held-content scan, so a tenant is told the same way whichever finds it.
 */
export function holderEntries(files: readonly FileRecord[]): HolderEntry[] {
  const entries = new Map<string, HolderEntry>()
  for (const file of files) {
    const key = JSON.stringify([file.tenantId, file.cid])
    let entry = entries.get(key)
    if (!entry) {
      entry = { tenantId: file.tenantId, cid: file.cid, fileIds: [] }
      entries.set(key, entry)
    }
    if (entry.fileIds.length < MAX_FILE_IDS) entry.fileIds.push(file.id)
  }
  return [...entries.values()]
}

/**
 * The tenant whose files a full page of holders ends with: holders come by tenant, so it may hold
 * more on the next page, and its entry waits for them. `undefined` when the page is the last.
 */
export function straddlingTenant(page: readonly FileRecord[], pageSize: number): string | undefined {
  return page.length === pageSize ? page.at(-1)?.tenantId : undefined
}
