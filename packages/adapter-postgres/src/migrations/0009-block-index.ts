import type { Migration } from './index.js'

/**
 * The block index: where every block of every stored content lies, found by multihash. Rows are
 * keyed by blob, not by content: an upload records its blocks before its content row commits,
 * and a row counts only while a content row owns its blob key (see `blocks.ts`).
 */
export const blockIndex: Migration = {
  version: 9,
  name: 'block-index',
  statements: [
    `create table blocks (
      blob_key text not null,
      multihash bytea not null,
      codec integer not null,
      source text not null check (source in ('blob', 'sidecar', 'unixfs-leaf')),
      byte_offset bigint not null check (byte_offset >= 0),
      byte_length integer not null check (byte_length >= 0),
      is_root boolean not null,
      primary key (blob_key, multihash)
    )`,
    'create index blocks_multihash_idx on blocks (multihash)',
  ],
}
