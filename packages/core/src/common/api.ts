/** Contract types shared by several features' operations. */

/** A keyset page as the service answers it: an empty `nextPageToken` on the last page. */
export interface ListResult {
  nextPageToken: string
}

/** Keyvalues as callers give them: numbers and booleans are accepted and stored as their text. */
export type KeyValueInput = Record<string, string | number | boolean>
