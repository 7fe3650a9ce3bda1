import { blockLength, headerLength } from '@ipld/car/buffer-writer'
import { CarIndexer } from '@ipld/car/indexer'
import * as dagPb from '@ipld/dag-pb'
import type { BlobStore, BlockLocation, CallOptions, CidVersion } from '@pinfold/interface'
import { isPinfoldError, PinfoldError } from '@pinfold/interface'
import type { CID } from 'multiformats/cid'
import { computeFileCid } from '../unixfs/compute-cid.js'
import { type Block, blockKey, DAG_PB_CODE } from './blocks.js'
import { indexKeyOf, readAll } from './car-blob.js'
import { carBytes } from './car-bytes.js'

/**
 * The inner nodes of a file's DAG (dag-pb nodes with links), kept beside its blob at
 * `${blobKey}.idx` as a CARv1 whose root is the file's CID. The import computes them anyway (about
 * 160 KB per GiB with Kubo's 256 KiB leaves); the leaves themselves are slices of the blob.
 */

/** A node of the sidecar and where its bytes lie in it. */
export interface SidecarNode extends Block {
  offset: number
}

/** Whether an importer block is an inner node (kept in the sidecar) rather than a leaf (a slice of the blob). */
export function isInnerNode({ cid, bytes }: Block): boolean {
  return cid.code === DAG_PB_CODE && dagPb.decode(bytes).Links.length > 0
}

/**
 * A file's CID under `profile` and its DAG's inner nodes (what the sidecar keeps), computed while
 * its bytes stream past; leaves are only hashed.
 */
export async function importFileDag(
  content: AsyncIterable<Uint8Array>,
  profile: CidVersion,
): Promise<{ cid: CID; innerNodes: Block[] }> {
  const innerNodes: Block[] = []
  const cid = await computeFileCid(content, profile, (node) => {
    if (isInnerNode(node)) innerNodes.push(node)
  })
  return { cid, innerNodes }
}

/** Writes the sidecar (each distinct node once) and answers where each node landed in it. */
export async function writeFileDagIndex(
  blobs: BlobStore,
  blobKey: string,
  root: CID,
  nodes: readonly Block[],
  options: CallOptions = {},
): Promise<SidecarNode[]> {
  const distinct = [...new Map(nodes.map((node) => [blockKey(node.cid), node])).values()]
  const placed: SidecarNode[] = []
  let position = headerLength({ roots: [root] })
  for (const node of distinct) {
    const section = blockLength(node)
    placed.push({ ...node, offset: position + section - node.bytes.length })
    position += section
  }
  await blobs.put(
    indexKeyOf(blobKey),
    carBytes(
      root,
      (async function* () {
        yield* distinct
      })(),
    ),
    options,
  )
  return placed
}

/**
 * The stored inner nodes of the file whose DAG has `root`, with their places in the sidecar;
 * `undefined` when none were stored (a file uploaded before sidecars existed, or one whose sidecar
 * names another root). Hashes are checked when the nodes are read as blocks, not here.
 */
export async function readFileDagIndex(
  blobs: BlobStore,
  blobKey: string,
  root: CID,
  options: CallOptions = {},
): Promise<SidecarNode[] | undefined> {
  let bytes: Uint8Array
  try {
    bytes = await readAll(await blobs.get(indexKeyOf(blobKey), options))
  } catch (error) {
    if (isPinfoldError(error) && error.code === 'NOT_FOUND') return undefined
    throw error
  }
  try {
    const indexer = await CarIndexer.fromBytes(bytes)
    if (!(await indexer.getRoots())[0]?.equals(root)) return undefined
    const nodes: SidecarNode[] = []
    for await (const { cid, blockOffset, blockLength } of indexer) {
      nodes.push({ cid, bytes: bytes.subarray(blockOffset, blockOffset + blockLength), offset: blockOffset })
    }
    return nodes
  } catch (cause) {
    throw new PinfoldError('INTERNAL', `the DAG index of ${blobKey} is corrupt`, { cause })
  }
}

/** Block-index entries of sidecar nodes. */
export function sidecarLocations(root: CID, nodes: readonly SidecarNode[]): BlockLocation[] {
  return nodes.map(({ cid, bytes, offset }) => ({
    multihash: cid.multihash.bytes,
    codec: cid.code,
    source: 'sidecar',
    offset,
    length: bytes.length,
    isRoot: blockKey(cid) === blockKey(root),
  }))
}
