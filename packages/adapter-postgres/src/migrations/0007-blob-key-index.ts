import type { Migration } from './index.js'

/** The orphan-blob sweep asks, per blob, whether a content record owns it. */
export const blobKeyIndex: Migration = {
  version: 7,
  name: 'blob-key-index',
  statements: ['create index contents_blob_key_idx on contents (blob_key)'],
}
