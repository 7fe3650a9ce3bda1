import type { CID } from 'multiformats/cid'
import type { CallOptions } from '../ports.js'

/**
 * Read access to the IPFS DAG of one stored content, whatever its blob layout (see
 * `ContentKind`): the gateway serves raw blocks, CARs and UnixFS paths through this alone.
 * Implementations live beside this file, one per content kind (`file-dag.ts`, `car-dag.ts`).
 */
export interface ContentDag {
  /** The content's root CID. */
  readonly root: CID
  /** The bytes of a block of this DAG, or `undefined` when the block is not part of it. */
  getBlock(cid: CID, options?: CallOptions): Promise<Uint8Array | undefined>
  /**
   * Every block reachable from `root`, depth-first in link order, each exactly once: the order
   * a trustless gateway streams a CAR in. Memory use must not grow with the content's size.
   */
  blocks(options?: CallOptions): AsyncIterable<{ cid: CID; bytes: Uint8Array }>
}
