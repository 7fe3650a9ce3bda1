/** `FileService.dnslink`: the contract (its operation is in `dnslink.ts`). */

import type { CallOptions } from '@pinfold/interface'

/** What a host's DNSLink names: `dnslink=/ipfs/{cid}[/path]`. */
export interface DnslinkTarget {
  cid: string
  /** Segments after the CID (a site kept in a sub-directory), as the record writes them. */
  path: string[]
}

/**
 * DNSLink (specs.ipfs.tech/http-gateways/dnslink-gateway): a host whose `_dnslink.{host}` TXT
 * record says `dnslink=/ipfs/{cid}[/path]` is served as that website. Only `/ipfs/` values are
 * followed: Pinfold publishes no IPNS names, and a `/ipns/{other host}` value would make one
 * request look up names a client chose.
 */
export interface DnslinkOperations {
  /**
   * The content `host`'s DNSLink names, or `undefined` when it has none. Answers are kept for the
   * TTL the resolver reports (between 1 s and an hour; a minute when it reports none), and "no
   * record" for a minute, so a busy site costs one lookup per TTL. Of several `/ipfs/` records the
   * first in sorted order wins (the DNSLink spec's rule). Without a TXT resolver no host has one.
   * `UNAVAILABLE`: the lookup failed otherwise than "no such name" (nothing is cached then).
   */
  resolve(host: string, options?: CallOptions): Promise<DnslinkTarget | undefined>
}
