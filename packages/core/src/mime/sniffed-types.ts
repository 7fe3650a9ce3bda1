import { LRUCache } from 'lru-cache'

/**
 * Types sniffed from content, by CID: a CID names its bytes, so what they look like never changes,
 * and serving a small file again costs no sniffing (nor the read of its head). Whether the content
 * may be served at all is decided before, on every request. Kept here rather than in
 * `@pinfold/http`, which stays runtime-neutral (lru-cache's Node build uses diagnostics_channel).
 */
const SNIFFED = new LRUCache<string, string>({ max: 10_000 })

/** The type sniffed for `cid` before, or what `sniff` finds now (then remembered). */
export async function sniffedTypeOf(cid: string, sniff: () => Promise<string>): Promise<string> {
  const known = SNIFFED.get(cid)
  if (known) return known
  const sniffed = await sniff()
  SNIFFED.set(cid, sniffed)
  return sniffed
}
