import * as dagPb from '@ipld/dag-pb'
import { UnixFS } from 'ipfs-unixfs'
import type { BufferImporter } from 'ipfs-unixfs-importer'
import { CID } from 'multiformats/cid'
import * as raw from 'multiformats/codecs/raw'
import { sha256OnWorkers } from '../hashing/sha256-workers.js'

export interface LeafOptions {
  rawLeaves: boolean
  cidVersion: 0 | 1
  /** UnixFS type of wrapped (non-raw) leaves; Kubo's is `file`. */
  leafType?: 'file' | 'raw'
}

/**
 * The importer's leaf step with the hashing moved off the main thread: the same blocks and CIDs as
 * ipfs-unixfs-importer's default buffer importer (raw leaves, or UnixFS nodes wrapping each chunk),
 * but each leaf's SHA-256 runs on a worker. The importer already hashes several leaves at once
 * (`blockWriteConcurrency`), so the workers stay busy while the main thread reads the next chunks.
 */
export function workerHashedLeaves(options: LeafOptions): BufferImporter {
  return async function* leaves(file, blockstore) {
    for await (const chunk of file.content) {
      yield async () => {
        if (options.rawLeaves) {
          const cid = CID.createV1(raw.code, await sha256OnWorkers.digest(chunk))
          await blockstore.put(cid, chunk)
          return { cid, size: BigInt(chunk.length), block: chunk }
        }
        const unixfs = new UnixFS({ type: options.leafType ?? 'file', data: chunk })
        const block = dagPb.encode({ Data: unixfs.marshal(), Links: [] })
        const cid = CID.create(options.cidVersion, dagPb.code, await sha256OnWorkers.digest(block))
        await blockstore.put(cid, block)
        return { cid, unixfs, size: BigInt(block.length), block }
      }
    }
  }
}
