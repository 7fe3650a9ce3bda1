import * as dagPb from '@ipld/dag-pb'
import { PinfoldError } from '@pinfold/interface'
import { UnixFS } from 'ipfs-unixfs'
import type { CID } from 'multiformats/cid'

const DAG_PB_CODE = 0x70

/**
 * Refuses a UnixFS file node above the leaves (a dag-pb node with links) whose `Data` is not the
 * canonical encoding of the sizes it holds: type `file`, `filesize` = the sum of `blocksizes`, no
 * data, mode or mtime (Pinfold's imports set none). Leaves, raw blocks and directories pass.
 *
 * protons-runtime, which ipfs-unixfs encodes with, wrote uint64 values in [2^31, 2^32) as one byte
 * followed by four bytes it never wrote (`Buffer.allocUnsafe` memory), so the root of a 2–4 GiB
 * file came out malformed and its CID depended on what that memory held (fixed by
 * `patches/protons-runtime.patch`). This check makes such an encoder, wherever Pinfold runs
 * without the patch, fail the import instead of giving a CID Kubo would not give. It costs a
 * decode and an encode per node above the leaves: about 24 per GiB.
 */
export function checkFileNode(cid: CID, bytes: Uint8Array): void {
  if (cid.code !== DAG_PB_CODE) return
  let data: Uint8Array
  let expected: Uint8Array
  try {
    const node = dagPb.decode(bytes)
    if (node.Links.length === 0 || !node.Data) return
    const unixfs = UnixFS.unmarshal(node.Data)
    if (unixfs.type !== 'file') return
    data = node.Data
    expected = fileNodeData(unixfs.blockSizes)
  } catch (cause) {
    throw malformed(cid, cause)
  }
  if (!Buffer.from(data.buffer, data.byteOffset, data.byteLength).equals(expected)) throw malformed(cid)
}

function malformed(cid: CID, cause?: unknown): PinfoldError {
  return new PinfoldError(
    'INTERNAL',
    `the UnixFS encoder wrote a malformed file node (${cid}): its CID would not be Kubo's`,
    cause === undefined ? undefined : { cause },
  )
}

/** `Data` of a file node above the leaves, written out from the protobuf and UnixFS specifications. */
function fileNodeData(blockSizes: readonly bigint[]): Buffer {
  const total = blockSizes.reduce((sum, size) => sum + size, 0n)
  const out: number[] = [0x08, 0x02, 0x18]
  pushVarint(out, total)
  for (const size of blockSizes) {
    out.push(0x20)
    pushVarint(out, size)
  }
  return Buffer.from(out)
}

function pushVarint(out: number[], value: bigint): void {
  do {
    const low = Number(value & 0x7fn)
    value >>= 7n
    out.push(value > 0n ? low | 0x80 : low)
  } while (value > 0n)
}
