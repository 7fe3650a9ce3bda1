import { createHash, type Hash } from 'node:crypto'

/**
 * Cuts a byte stream into raw leaves of `leafBytes` and hashes each as its bytes pass, without
 * copying them: `push` answers the pieces (views of the chunks) of the leaves it completed, and
 * holds back the bytes of the leaf still open until more arrive or `finish` is called.
 * A resumable upload stores only complete leaves per PATCH and records their SHA-256 digests, so
 * its completion builds the file's DAG from the digests without reading the bytes again.
 */
export class LeafCutter {
  /** SHA-256 digests of the leaves completed so far, in order. */
  readonly digests: Uint8Array[] = []
  /** Chunks of the open leaf, and their total size. */
  private open: Uint8Array[] = []
  private openBytes = 0
  private hash: Hash = createHash('sha256')

  constructor(private readonly leafBytes: number) {}

  /** Bytes of the open (incomplete) leaf held back. */
  get heldBytes(): number {
    return this.openBytes
  }

  /** Feeds a chunk; answers the pieces of every leaf it completed, in order. */
  push(chunk: Uint8Array): Uint8Array[] {
    const complete: Uint8Array[] = []
    for (let at = 0; at < chunk.length; ) {
      const take = Math.min(this.leafBytes - this.openBytes, chunk.length - at)
      const piece = take === chunk.length ? chunk : chunk.subarray(at, at + take)
      this.hash.update(piece)
      this.open.push(piece)
      this.openBytes += take
      at += take
      if (this.openBytes === this.leafBytes) {
        this.digests.push(this.hash.digest())
        complete.push(...this.open)
        this.open = []
        this.openBytes = 0
        this.hash = createHash('sha256')
      }
    }
    return complete
  }

  /**
   * Ends the stream. As the file's last leaf (`last`), the open leaf is completed, however short,
   * and its pieces answered; otherwise they are answered unhashed, for the caller to keep and feed
   * first next time.
   */
  finish(last: boolean): Uint8Array[] {
    const open = this.open
    if (last && this.openBytes > 0) this.digests.push(this.hash.digest())
    this.open = []
    this.openBytes = 0
    this.hash = createHash('sha256')
    return open
  }
}
