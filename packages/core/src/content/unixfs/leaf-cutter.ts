import { RawLeafHasher } from './raw-leaf-hasher.js'

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
  /** Pieces of the open (incomplete) leaf, and their total size. */
  private open: Uint8Array[] = []
  private openBytes = 0
  /** Pieces of the leaves completed by the current `push` or `finish`. */
  private completed: Uint8Array[] = []
  private readonly hasher: RawLeafHasher

  constructor(leafBytes: number) {
    this.hasher = new RawLeafHasher(leafBytes, ({ digest }) => {
      this.digests.push(digest)
      // not push(...open): a leaf may be thousands of pieces, past what a call's arguments hold
      for (const piece of this.open) this.completed.push(piece)
      this.open = []
      this.openBytes = 0
    })
  }

  /** Bytes of the open (incomplete) leaf held back. */
  get heldBytes(): number {
    return this.openBytes
  }

  /** Feeds a chunk; answers the pieces of every leaf it completed, in order. */
  push(chunk: Uint8Array): Uint8Array[] {
    this.hasher.update(chunk, (piece) => {
      this.open.push(piece)
      this.openBytes += piece.length
    })
    return this.takeCompleted()
  }

  /**
   * Ends the stream. As the file's last leaf (`last`), the open leaf is completed, however short,
   * and its pieces answered; otherwise they are answered unhashed, for the caller to keep and feed
   * first next time. The cutter is spent afterwards.
   */
  finish(last: boolean): Uint8Array[] {
    if (!last || this.openBytes === 0) return this.open
    this.hasher.finish()
    return this.takeCompleted()
  }

  private takeCompleted(): Uint8Array[] {
    const completed = this.completed
    this.completed = []
    return completed
  }
}
