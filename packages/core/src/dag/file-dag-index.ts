import { CarBufferReader } from '@ipld/car/buffer-reader'
import * as CarBufferWriter from '@ipld/car/buffer-writer'
import type { CID } from 'multiformats/cid'
import { isPinfoldError, PinfoldError } from '../errors.js'
import type { Block } from '../gateway/car-stream.js'
import type { BlobStore, CallOptions } from '../ports.js'
import { verifyBlock } from './blocks.js'
import { indexKeyOf, once, readAll } from './car-blob.js'

/**
 * The inner nodes of a file's DAG (dag-pb nodes with links), kept beside its blob at
 * `${blobKey}.idx` as a CARv1 whose root is the file's CID. The upload's import computes them
 * anyway (about 160 KB per GiB with Kubo's 256 KiB leaves); without them, the first trustless
 * request for a file has to re-import the whole blob to rebuild them.
 */
export async function writeFileDagIndex(
  blobs: BlobStore,
  blobKey: string,
  root: CID,
  nodes: readonly Block[],
  options: CallOptions = {},
): Promise<void> {
  const roots = [root]
  const size =
    CarBufferWriter.headerLength({ roots }) + nodes.reduce((sum, node) => sum + CarBufferWriter.blockLength(node), 0)
  const writer = CarBufferWriter.createWriter(new ArrayBuffer(size), { roots })
  for (const node of nodes) CarBufferWriter.addBlock(writer, node)
  const car = CarBufferWriter.close(writer)
  await blobs.put(indexKeyOf(blobKey), once(car), options)
}

/**
 * The stored inner nodes of the file whose DAG has `root`, each checked against its CID; undefined
 * when none were stored (a file uploaded before they were, or imported with another profile than
 * the one the index was written for).
 */
export async function readFileDagIndex(
  blobs: BlobStore,
  blobKey: string,
  root: CID,
  options: CallOptions = {},
): Promise<{ rootBytes: Uint8Array; nodes: Map<string, Uint8Array> } | undefined> {
  let bytes: Uint8Array
  try {
    bytes = await readAll(await blobs.get(indexKeyOf(blobKey), options))
  } catch (error) {
    if (isPinfoldError(error) && error.code === 'NOT_FOUND') return undefined
    throw error
  }
  let reader: CarBufferReader
  try {
    reader = CarBufferReader.fromBytes(bytes)
  } catch (cause) {
    throw new PinfoldError('INTERNAL', `the DAG index of ${blobKey} is corrupt`, { cause })
  }
  if (!reader.getRoots()[0]?.equals(root)) return undefined
  const nodes = new Map<string, Uint8Array>()
  for (const { cid, bytes } of reader.blocks()) {
    await verifyBlock(cid, bytes).catch((cause: unknown) => {
      throw new PinfoldError('INTERNAL', `the DAG index of ${blobKey} is corrupt`, { cause })
    })
    nodes.set(cid.toString(), bytes)
  }
  const rootBytes = nodes.get(root.toString())
  if (!rootBytes) throw new PinfoldError('INTERNAL', `the DAG index of ${blobKey} lacks its root`)
  return { rootBytes, nodes }
}
