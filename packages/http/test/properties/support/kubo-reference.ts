import { type ImportCandidate, type ImporterOptions, importer } from 'ipfs-unixfs-importer'
import { fixedSize } from 'ipfs-unixfs-importer/chunker'
import { balanced } from 'ipfs-unixfs-importer/layout'
import type { CID } from 'multiformats/cid'

/**
 * The reference the round trips are judged against: `ipfs-unixfs-importer` with Kubo's settings,
 * written out here from the shared notes (ipfs.md §1.1–1.3) rather than taken from core's
 * `kuboImporterOptions`, so that a wrong profile in core cannot make its own expectation.
 * `kubo-reference.test.ts` proves these settings against Kubo's published CIDs.
 */

export const PROFILES = ['v0', 'v1', 'unixfs-v1-2025'] as const
export type Profile = (typeof PROFILES)[number]

export interface KuboProfile {
  /** Leaf size: Kubo's `size-262144` chunker, or 1 MiB under IPIP-499's unixfs-v1-2025. */
  chunk: number
  /** Links per file node of the balanced layout (`helpers.DefaultLinksPerBlock` = 8192/47, or 1024). */
  links: number
  options: ImporterOptions
}

const common = {
  // Kubo's balanced builder makes a single-chunk file's leaf its root
  reduceSingleLeafToSelf: true,
  // a directory turns into a HAMT above 256 KiB (strictly more), estimated per profile
  shardSplitThresholdBytes: 262_144,
}

const profile = (chunk: number, links: number, options: ImporterOptions): KuboProfile => ({
  chunk,
  links,
  options: {
    ...common,
    chunker: fixedSize({ chunkSize: chunk }),
    layout: balanced({ maxChildrenPerNode: links }),
    ...options,
  },
})

export const KUBO: Record<Profile, KuboProfile> = {
  // `ipfs add`: CIDv0, leaves are dag-pb UnixFS File nodes (the importer defaults to raw leaves)
  v0: profile(262_144, 174, { cidVersion: 0, rawLeaves: false, leafType: 'file', shardSplitStrategy: 'links-bytes' }),
  // `ipfs add --cid-version=1`: CIDv1 implies raw leaves
  v1: profile(262_144, 174, { cidVersion: 1, rawLeaves: true, shardSplitStrategy: 'links-bytes' }),
  // `ipfs add --profile unixfs-v1-2025`: 1 MiB chunks, 1024 links, HAMT by serialized block size
  'unixfs-v1-2025': profile(1_048_576, 1024, { cidVersion: 1, rawLeaves: true, shardSplitStrategy: 'block-bytes' }),
}

export interface ReferenceDag {
  root: CID
  /** Every block the import wrote, by CID string, once each. */
  blocks: Map<string, { cid: CID; bytes: Uint8Array }>
}

/**
 * Imports one file (`{ content }`) or one folder (`{ path: 'top/…', content }` entries sharing
 * the top directory `top`) as Kubo would, keeping every block. `wrap` is `ipfs add -w`.
 */
export async function referenceDag(
  entries: readonly ImportCandidate[],
  version: Profile,
  { top, wrap = false }: { top?: string; wrap?: boolean } = {},
): Promise<ReferenceDag> {
  const blocks: ReferenceDag['blocks'] = new Map()
  const store = {
    async put(cid: CID, bytes: Uint8Array) {
      blocks.set(cid.toString(), { cid, bytes })
      return cid
    },
  }
  let root: CID | undefined
  for await (const entry of importer(entries, store, { ...KUBO[version].options, wrapWithDirectory: wrap })) {
    // a file's only entry, the wrapper (path ''), or the folder's top directory
    if (top === undefined || entry.path === top) root = entry.cid
  }
  if (!root) throw new Error(`the importer yielded no entry for ${top ?? 'the file'}`)
  return { root, blocks }
}
