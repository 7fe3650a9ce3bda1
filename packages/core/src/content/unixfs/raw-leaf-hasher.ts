import { createHash, type Hash } from 'node:crypto'
import type { BufferImporter, ImporterOptions } from 'ipfs-unixfs-importer'
import { CID } from 'multiformats/cid'
import * as raw from 'multiformats/codecs/raw'
import * as Digest from 'multiformats/hashes/digest'
import { sha256 } from 'multiformats/hashes/sha2'

/** A raw leaf of a file as its DAG needs it: the SHA-256 of its bytes and how many there are. */
export interface RawLeaf {
  digest: Uint8Array
  size: number
}

/**
 * Cuts a byte stream into raw leaves of `leafBytes` and hashes each piece by piece as the chunks
 * pass, synchronously and without copying them: `onLeaf` hears of each leaf as its last byte goes
 * by. The stock fixed-size chunker copies every leaf out of the chunks that make it up (a network
 * chunk is 64 KiB, a leaf 256 KiB), which cost as much CPU time as hashing itself in a 1 GiB
 * upload, mostly in GC.
 */
export class RawLeafHasher {
  private hash: Hash = createHash('sha256')
  private filled = 0
  private leaves = 0

  constructor(
    private readonly leafBytes: number,
    private readonly onLeaf: (leaf: RawLeaf) => void,
  ) {}

  /**
   * Feeds a chunk. `onPiece` hears of each piece of it that falls within one leaf (a view of the
   * chunk, no copy), before the leaf it ends, if any, is announced.
   */
  update(chunk: Uint8Array, onPiece?: (piece: Uint8Array) => void): void {
    for (let at = 0; at < chunk.length; ) {
      const take = Math.min(this.leafBytes - this.filled, chunk.length - at)
      const piece = take === chunk.length ? chunk : chunk.subarray(at, at + take)
      this.hash.update(piece)
      this.filled += take
      at += take
      onPiece?.(piece)
      if (this.filled === this.leafBytes) this.completeLeaf()
    }
  }

  /** Ends the stream: the open leaf, however short, is the last; an empty stream is one empty leaf, as with the stock chunker. */
  finish(): void {
    if (this.filled > 0 || this.leaves === 0) this.completeLeaf()
  }

  private completeLeaf(): void {
    const leaf = { digest: this.hash.digest(), size: this.filled }
    this.hash = createHash('sha256')
    this.filled = 0
    this.leaves++
    this.onLeaf(leaf)
  }
}

/**
 * Importer options that compute the same raw-leaf DAG as `options` without assembling its leaves:
 * the content's chunks go through untouched (the chunker is the identity) and each leaf's SHA-256
 * is fed piece by piece as the chunks arrive ({@link RawLeafHasher}).
 *
 * For CID computation only: leaves are hashed, never stored, so each leaf's `block` is empty. The
 * importer reads a leaf's block only to wrap a single-leaf file that carries `mtime` or `mode`;
 * candidates given to these options must carry neither.
 */
export function hashOnlyRawLeaves(options: ImporterOptions, leafBytes: number): ImporterOptions {
  return { ...options, chunker: (source) => source, bufferImporter: rawLeafHasher(leafBytes) }
}

const NO_BLOCK = new Uint8Array(0)

const hashedLeaf =
  ({ digest, size }: RawLeaf) =>
  async () => ({
    cid: CID.createV1(raw.code, Digest.create(sha256.code, digest)),
    size: BigInt(size),
    block: NO_BLOCK,
  })

function rawLeafHasher(leafBytes: number): BufferImporter {
  return async function* hashLeaves(file) {
    const done: RawLeaf[] = []
    const hasher = new RawLeafHasher(leafBytes, (leaf) => done.push(leaf))
    for await (const chunk of file.content) {
      hasher.update(chunk)
      while (done.length > 0) yield hashedLeaf(done.shift()!)
    }
    hasher.finish()
    while (done.length > 0) yield hashedLeaf(done.shift()!)
  }
}
