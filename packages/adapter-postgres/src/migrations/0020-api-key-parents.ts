import type { Migration } from './index.js'

/**
 * The key that created each API key: a key's child spends the parent's uses and is revoked with
 * it (`createApiKey`, `revokeApiKey`). Keys from before have no parent (`null`), as keys created
 * by a deployment's own token.
 */
export const apiKeyParents: Migration = {
  version: 20,
  name: 'api-key-parents',
  statements: [
    'alter table api_keys add column parent_id text',
    // revokeApiKey walks the tree by parent, one level per statement
    'create index api_keys_parent_idx on api_keys (parent_id) where parent_id is not null',
  ],
}
