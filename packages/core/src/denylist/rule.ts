/**
 * What one line of a deny list says, once parsed (the compact denylist format, IPIP-383:
 * https://specs.ipfs.tech/compact-denylist-format/). A rule is kept with the list and line it came
 * from, so every refusal can name both.
 */

/** Which sub-paths a rule covers below its CID or name. */
export type PathSpec =
  /** Only the root itself (`/ipfs/CID`), or exactly this path (`/ipfs/CID/a/b`). */
  | { readonly exact: string }
  /** Every path that starts with this text (`/ipfs/CID/a*`); `''` is the root and everything below. */
  | { readonly prefix: string }

export type RuleTarget =
  /** `/ipfs/CID[/path]`: by the CID's multihash (`key`, its bytes as latin1), whatever the codec. */
  | { readonly kind: 'ipfs'; readonly key: string; readonly path: PathSpec }
  /** `/ipns/NAME[/path]`: a key (by its multihash) or a DNSLink domain; kept for IPNS support. */
  | { readonly kind: 'ipns'; readonly key: string; readonly path: PathSpec }
  /**
   * `//HASH`: the hash of a CID, path or name, so the list does not publish what it blocks.
   * `legacy` is badbits' sha256 hex of `CIDv1base32/path`; `modern` is a base58btc multihash of
   * `base58btc-multihash[/path]` or `/ipns/name[/path]`, with `code` its hash function.
   */
  | { readonly kind: 'double-hash'; readonly form: 'legacy' | 'modern'; readonly code: number; readonly key: string }

export interface DenyRule {
  /** The line as written (without its hints), for logs and the API. */
  readonly text: string
  /** `!` rules allow what an earlier rule blocked. */
  readonly allow: boolean
  readonly target: RuleTarget
  /** `key:value` hints after the rule (`gateway_status:451`); the list header's hints are defaults. */
  readonly hints: Readonly<Record<string, string>>
}

/** A rule where it was found: the list's name and the 1-based line. */
export interface ListedRule extends DenyRule {
  readonly list: string
  readonly line: number
}

/** A line that is not a rule, skipped: the rest of the list still applies. */
export interface ListProblem {
  readonly list: string
  readonly line: number
  readonly reason: string
}

/** The optional YAML header above `---`. */
export interface ListHeader {
  readonly version: number
  readonly name?: string
  readonly description?: string
  readonly author?: string
  readonly hints: Readonly<Record<string, string>>
}
