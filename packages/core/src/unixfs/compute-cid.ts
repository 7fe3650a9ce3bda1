import { importer } from 'ipfs-unixfs-importer'
import type { CID } from 'multiformats/cid'
import { PinfoldError } from '../errors.js'
import { type CidVersion, kuboImporterOptions, LEAF_BYTES } from './profiles.js'
import { hashOnlyRawLeaves } from './raw-leaf-hasher.js'

/**
 * Blocks are only hashed, not kept: the bytes themselves are stored as one blob, and every block
 * of a Kubo DAG can be rebuilt from them deterministically when a gateway needs it.
 */
const discardBlocks = { put: async (cid: CID) => cid }

/** The CID `ipfs add` gives a single file with these bytes, computed while they stream past. */
export async function computeFileCid(content: AsyncIterable<Uint8Array>, version: CidVersion): Promise<CID> {
  const kubo = kuboImporterOptions(version)
  // dag-pb leaves (CIDv0) wrap their bytes, so only raw leaves can be hashed without assembling them
  const options = kubo.rawLeaves ? hashOnlyRawLeaves(kubo, LEAF_BYTES[version]) : kubo
  let root: CID | undefined
  for await (const entry of importer([{ content }], discardBlocks, options)) root = entry.cid
  if (!root) throw new PinfoldError('INTERNAL', 'the importer produced no root')
  return root
}
