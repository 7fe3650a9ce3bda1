import * as dagPb from '@ipld/dag-pb'
import type { BlobStore, CallOptions, ContentRecord } from '@pinfold/interface'
import type { CID } from 'multiformats/cid'
import { readFileDagIndex } from '../content/dag/file-dag-index.js'

/**
 * Asks `deny` (which throws `BLOCKED`) about every block of a file content below `root` without
 * reading the file: the root, each inner node of its sidecar and every link they hold (the leaves).
 * For whole files handed out straight from their blob (the gateway's whole-file read, a presigned
 * blob-store redirect), whose blocks are otherwise never read one by one.
 */
export async function checkFileBlocks(
  deny: (cid: CID) => void,
  blobs: BlobStore,
  content: ContentRecord,
  root: CID,
  options?: CallOptions,
): Promise<void> {
  deny(root)
  for (const node of (await readFileDagIndex(blobs, content.blobKey, root, options)) ?? []) {
    deny(node.cid)
    for (const link of dagPb.decode(node.bytes).Links) deny(link.Hash)
  }
}
