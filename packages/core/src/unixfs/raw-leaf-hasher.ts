import { createHash, type Hash } from 'node:crypto'
import type { BufferImporter, ImporterOptions } from 'ipfs-unixfs-importer'
import { CID } from 'multiformats/cid'
import * as raw from 'multiformats/codecs/raw'
import * as Digest from 'multiformats/hashes/digest'
import { sha256 } from 'multiformats/hashes/sha2'

/**
 * Importer options that compute the same raw-leaf DAG as `options` without assembling its leaves:
 * the content's chunks go through untouched (the chunker is the identity) and each leaf's SHA-256
 * is fed piece by piece as the chunks arrive, cut at every `leafBytes`. The stock fixed-size
 * chunker copies every leaf out of the chunks that make it up (a network chunk is 64 KiB, a leaf
 * 256 KiB), which cost as much CPU time as hashing itself in a 1 GiB upload, mostly in GC.
 *
 * For CID computation only: leaves are hashed, never stored, so each leaf's `block` is empty. The
 * importer reads a leaf's block only to wrap a single-leaf file that carries `mtime` or `mode`;
 * candidates given to these options must carry neither.
 */
export function hashOnlyRawLeaves(options: ImporterOptions, leafBytes: number): ImporterOptions {
  return { ...options, chunker: (source) => source, bufferImporter: rawLeafHasher(leafBytes) }
}

const NO_BLOCK = new Uint8Array(0)

function rawLeafHasher(leafBytes: number): BufferImporter {
  const leaf = (hash: Hash, size: number) => async () => ({
    cid: CID.createV1(raw.code, Digest.create(sha256.code, hash.digest())),
    size: BigInt(size),
    block: NO_BLOCK,
  })
  return async function* hashLeaves(file) {
    let hash = createHash('sha256')
    let filled = 0
    let leaves = 0
    for await (const chunk of file.content) {
      for (let at = 0; at < chunk.length; ) {
        const take = Math.min(leafBytes - filled, chunk.length - at)
        hash.update(take === chunk.length ? chunk : chunk.subarray(at, at + take))
        filled += take
        at += take
        if (filled === leafBytes) {
          yield leaf(hash, filled)
          leaves++
          hash = createHash('sha256')
          filled = 0
        }
      }
    }
    // an empty file is one empty leaf, as with the stock chunker
    if (filled > 0 || leaves === 0) yield leaf(hash, filled)
  }
}
