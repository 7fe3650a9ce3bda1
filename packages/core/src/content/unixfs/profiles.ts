import type { CidVersion } from '@pinfold/interface'
import type { ImporterOptions } from 'ipfs-unixfs-importer'
import { fixedSize } from 'ipfs-unixfs-importer/chunker'
import { balanced } from 'ipfs-unixfs-importer/layout'

/** Leaf (chunk) size of each profile, in bytes. */
export const LEAF_BYTES: Record<CidVersion, number> = { v0: 262_144, v1: 262_144, 'unixfs-v1-2025': 1_048_576 }

/**
 * Importer settings that reproduce Kubo's CIDs byte for byte (verified against Kubo's published
 * vectors). Every option is spelled out because the importer's own defaults have drifted between
 * releases — `{ cidVersion: 0 }` alone would give Kubo's `--raw-leaves` CID, not plain `ipfs add`.
 */
export function kuboImporterOptions(version: CidVersion): ImporterOptions {
  const common = {
    reduceSingleLeafToSelf: true,
    chunker: fixedSize({ chunkSize: LEAF_BYTES[version] }),
    layout: balanced({ maxChildrenPerNode: 174 }),
    shardSplitThresholdBytes: 262_144,
    shardSplitStrategy: 'links-bytes',
    // Files arrive one after another from a single request body; importing them in parallel
    // would make the importer wait for a part that cannot arrive before the current one ends.
    fileImportConcurrency: 1,
  } satisfies ImporterOptions
  switch (version) {
    case 'v1':
      return { ...common, cidVersion: 1, rawLeaves: true }
    case 'v0':
      return { ...common, cidVersion: 0, rawLeaves: false, leafType: 'file' }
    case 'unixfs-v1-2025':
      return {
        ...common,
        cidVersion: 1,
        rawLeaves: true,
        layout: balanced({ maxChildrenPerNode: 1024 }),
        shardSplitStrategy: 'block-bytes',
      }
  }
}
