import { randomUUID } from 'node:crypto'
import type { ContentRecord, GroupRecord, NewFile } from '@pinfold/interface'

/** The tenants every record suite plays with: one acting, one whose records must stay invisible. */
export const TENANT = 'tenant-a'
export const OTHER_TENANT = 'tenant-b'

/** Fixed, distinct moments: `at(3)` is three seconds after `at(0)`. */
export const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, second))

/** A CID-shaped string no other test uses. */
export const newCid = () => `bafkrei${randomUUID().replaceAll('-', '')}`

/** A builder of new file records with a suite's own defaults; each call gets a fresh id and CID. */
export function fileBuilder(defaults: Partial<NewFile> = {}): (fields?: Partial<NewFile>) => NewFile {
  return (fields = {}) => ({
    id: randomUUID(),
    tenantId: TENANT,
    userId: 'user-1',
    network: 'public',
    name: 'report.pdf',
    cid: newCid(),
    size: 1234,
    numberOfFiles: 1,
    mimeType: 'application/pdf',
    groupId: null,
    keyvalues: {},
    createdAt: at(0),
    expiresAt: null,
    ...defaults,
    ...fields,
  })
}

/** The content record a stored file of this CID would have. */
export function contentFor(file: NewFile): ContentRecord {
  return { cid: file.cid, blobKey: `blobs/${randomUUID()}`, size: file.size, kind: 'file', profile: 'v1' }
}

/** A new group of `TENANT` on the public network; each call gets a fresh id. */
export function newGroup(fields: Partial<GroupRecord> = {}): GroupRecord {
  return {
    id: randomUUID(),
    tenantId: TENANT,
    network: 'public',
    name: 'photos',
    isPublic: false,
    createdAt: at(0),
    ...fields,
  }
}
