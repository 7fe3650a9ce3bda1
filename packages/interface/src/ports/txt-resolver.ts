import type { CallOptions } from '../call-options.js'

/**
 * A TXT lookup's answer: each record as its character-strings, and, when the resolver saw it, the
 * time to live the answer carried (seconds). `node:dns/promises`'s `resolveTxt` answers without
 * one; a resolver that reads the DNS answer itself can say how long the records may be kept.
 */
export type TxtRecords = string[][] & { readonly ttlSeconds?: number | undefined }

/**
 * DNS TXT lookups, for custom-domain verification and DNSLink (`node:dns/promises` `resolveTxt`
 * fits; a resolver that cannot be aborted ignores the signal). A name without TXT records is
 * answered by an empty list or a rejection whose `code` is `ENOTFOUND` or `ENODATA`.
 */
export type TxtResolver = (name: string, options?: CallOptions) => Promise<TxtRecords>
