import type { CallOptions } from '../call-options.js'

/**
 * DNS TXT lookups for custom-domain verification: each record as its character-strings
 * (`node:dns/promises` `resolveTxt` fits; a resolver that cannot be aborted ignores the signal).
 */
export type TxtResolver = (name: string, options?: CallOptions) => Promise<string[][]>
