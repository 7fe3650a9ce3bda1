import type { CidVersion } from '@pinfold/interface'
import { PinfoldError } from '@pinfold/interface'
import { type ImporterOptions, importer } from 'ipfs-unixfs-importer'
import type { CID } from 'multiformats/cid'
import type { Block } from '../dag/blocks.js'
import { checkFileNode } from './file-node-check.js'
import { kuboImporterOptions, LEAF_BYTES } from './profiles.js'
import { hashOnlyRawLeaves } from './raw-leaf-hasher.js'

/**
 * The CID `ipfs add` gives a single file with these bytes, computed while they stream past.
 * Blocks are not kept: the bytes themselves are stored as one blob, and every block of a Kubo DAG
 * can be rebuilt from them. `onBlock` sees each block the importer would store; raw leaves (every
 * profile but `v0`) are only hashed, so it then sees just the DAG's inner nodes.
 */
export async function computeFileCid(
  content: AsyncIterable<Uint8Array>,
  version: CidVersion,
  onBlock?: (block: Block) => void,
): Promise<CID> {
  const kubo = kuboImporterOptions(version)
  // dag-pb leaves (CIDv0) wrap their bytes, so only raw leaves can be hashed without assembling them
  const options = kubo.rawLeaves ? hashOnlyRawLeaves(kubo, LEAF_BYTES[version]) : kubo
  return runImporter(content, options, onBlock)
}

async function runImporter(
  content: AsyncIterable<Uint8Array>,
  options: ImporterOptions,
  onBlock: ((block: Block) => void) | undefined,
): Promise<CID> {
  const blockstore = {
    put: async (cid: CID, bytes: Uint8Array) => {
      checkFileNode(cid, bytes) // a malformed node would give a CID `ipfs add` never gives
      onBlock?.({ cid, bytes })
      return cid
    },
  }
  let root: CID | undefined
  for await (const entry of importer([{ content }], blockstore, options)) root = entry.cid
  if (!root) throw new PinfoldError('INTERNAL', 'the importer produced no root')
  return root
}
