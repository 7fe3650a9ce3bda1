import { createHash } from 'node:crypto'
import type { CidVersion } from '@pinfold/interface'
import { PinfoldError } from '@pinfold/interface'
import { type ImporterOptions, importer } from 'ipfs-unixfs-importer'
import { CID } from 'multiformats/cid'
import * as raw from 'multiformats/codecs/raw'
import * as Digest from 'multiformats/hashes/digest'
import { sha256 } from 'multiformats/hashes/sha2'
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

const NO_BLOCK = new Uint8Array(0)

/**
 * The CIDv1 (Kubo's settings) of a file whose raw leaves were hashed earlier: `digests` are the
 * SHA-256 of its 256 KiB leaves in order (the last may be shorter: the file has `size` bytes).
 * No byte of the file is read; `onBlock` sees the DAG's inner nodes, as with {@link computeFileCid}.
 */
export async function computeFileCidFromLeaves(
  digests: readonly Uint8Array[],
  size: number,
  onBlock?: (block: Block) => void,
): Promise<CID> {
  const leafBytes = LEAF_BYTES.v1
  // an empty file is one empty leaf, as with the stock chunker
  if (size === 0 && digests.length === 0) digests = [createHash('sha256').digest()]
  if (digests.length !== Math.max(1, Math.ceil(size / leafBytes))) {
    throw new PinfoldError('INTERNAL', `${digests.length} leaf digests cannot make a file of ${size} bytes`)
  }
  const options: ImporterOptions = {
    ...kuboImporterOptions('v1'),
    chunker: (source) => source,
    bufferImporter: async function* recordedLeaves() {
      for (const [i, digest] of digests.entries()) {
        const leafSize = i < digests.length - 1 ? leafBytes : size - leafBytes * i
        yield async () => ({
          cid: CID.createV1(raw.code, Digest.create(sha256.code, digest)),
          size: BigInt(leafSize),
          block: NO_BLOCK,
        })
      }
    },
  }
  return runImporter((async function* noBytes() {})(), options, onBlock)
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
