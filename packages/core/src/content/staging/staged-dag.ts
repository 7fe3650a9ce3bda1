import { CarBlockIterator } from '@ipld/car/iterator'
import type { BlobStore, BlockLocation, CallOptions, SessionStagedWrite } from '@pinfold/interface'
import { PinfoldError } from '@pinfold/interface'
import type { CID } from 'multiformats/cid'
import * as raw from 'multiformats/codecs/raw'
import * as Digest from 'multiformats/hashes/digest'
import { sha256 } from 'multiformats/hashes/sha2'
import { type Block, blockKey } from '../dag/blocks.js'
import { carBytes } from '../dag/car-bytes.js'
import { BalancedDagFrontier } from '../unixfs/balanced-dag.js'
import { leafDigests, type StagedEntry, splitDigests } from './staged-parts.js'

/**
 * What the PATCHes of a staged session built of its CIDv1 DAG, saved in `SessionStagedWrite.dag`
 * with each advance (so it always matches the offset, and a retried or losing PATCH never changes
 * it). Its size does not grow with the file: the open node of each level, one blob key, and the
 * leaves of the last PATCH. The completion then only closes the frontier (at most 173 links a
 * level), instead of building the DAG from every leaf digest and indexing every leaf.
 */
interface StagedDagState {
  /** {@link BalancedDagFrontier.serialize}. */
  frontier: string
  /** A CAR of every file node completed so far (each node of the DAG but those the completion makes). */
  nodes: string | null
  /**
   * The last accepted PATCH's leaves, whose block-index entries the next PATCH (or the completion)
   * writes: only an accepted PATCH's leaves are indexed, never those of one that lost its offset.
   */
  unindexed: { offset: number; leaves: string }
}

/** The DAG of a staged session as one PATCH (or the completion) advances it. */
export class StagedDag {
  /** File nodes completed since the saved state, not yet in the nodes blob. */
  private readonly made: Block[] = []
  private readonly fresh: { offset: number; digests: Uint8Array[] } = { offset: 0, digests: [] }

  private constructor(
    private readonly frontier: BalancedDagFrontier,
    /** The saved nodes blob, and the one this PATCH wrote to replace it. */
    private readonly savedNodes: string | null,
    private readonly unindexed: { offset: number; digests: Uint8Array[] },
    private writtenNodes: string | null = null,
  ) {}

  /**
   * The session's DAG so far. A session saved before the frontier existed recorded every leaf
   * digest in its parts instead: they are replayed, and indexed, by this PATCH.
   */
  static open(staged: SessionStagedWrite, entries: readonly StagedEntry[], leafBytes: number): StagedDag {
    if (staged.dag === undefined) {
      const dag = new StagedDag(BalancedDagFrontier.empty(), null, { offset: 0, digests: [] })
      dag.addLeaves(0, leafDigests(entries), () => leafBytes)
      return dag
    }
    let state: StagedDagState
    try {
      state = JSON.parse(staged.dag) as StagedDagState
    } catch (cause) {
      throw new PinfoldError('INTERNAL', 'an upload session holds a DAG state it cannot read', { cause })
    }
    return new StagedDag(BalancedDagFrontier.restore(state.frontier), state.nodes, {
      offset: state.unindexed.offset,
      digests: splitDigests(state.unindexed.leaves),
    })
  }

  /** Adds the leaves a PATCH stored from blob offset `offset` on; `sizeOf(i)` is the i-th one's bytes. */
  addLeaves(offset: number, digests: readonly Uint8Array[], sizeOf: (i: number) => number): void {
    if (this.fresh.digests.length === 0) this.fresh.offset = offset
    for (const [i, digest] of digests.entries()) {
      this.made.push(...this.frontier.addLeaf(digest, sizeOf(i)))
      this.fresh.digests.push(digest)
    }
  }

  /**
   * Block-index entries of the leaves of the last accepted PATCH, and with `own` of this one's too
   * (the completion's: no later PATCH will write them). `root` marks the file's root if it is a leaf.
   */
  leafLocations(leafBytes: number, size: number, own: boolean, root?: CID): BlockLocation[] {
    const locations = new Map<string, BlockLocation>()
    const rootKey = root?.code === raw.code ? blockKey(root) : undefined
    const add = ({ offset, digests }: { offset: number; digests: Uint8Array[] }) => {
      for (const [i, digest] of digests.entries()) {
        const leaf = { multihash: Digest.create(sha256.code, digest).bytes, codec: raw.code }
        const key = Buffer.from(leaf.multihash).toString('base64')
        const at = offset + i * leafBytes
        // a repeated leaf (a run of zeros) is one block: its first place answers for all
        if (!locations.has(key)) {
          const length = Math.min(leafBytes, size - at)
          locations.set(key, { ...leaf, source: 'blob', offset: at, length, isRoot: key === rootKey })
        }
      }
    }
    add(this.unindexed)
    if (own) add(this.fresh)
    return [...locations.values()]
  }

  /**
   * Stores the nodes this PATCH completed: a new blob at `key` holding the saved ones and these
   * (a few KB per 174 leaves), which replaces the saved one once the PATCH is accepted.
   */
  async saveNodes(blobs: BlobStore, key: string, options: CallOptions): Promise<void> {
    if (this.made.length === 0) return
    const saved = this.savedNodes
    const made = this.made.splice(0)
    const all = (async function* () {
      if (saved) yield* readNodes(blobs, saved, options)
      yield* made
    })()
    await blobs.put(key, carBytes(made.at(-1)!.cid, all), options)
    this.writtenNodes = key
  }

  /** The blob of nodes this PATCH wrote (to delete if it is not accepted), if any. */
  get written(): string | null {
    return this.writtenNodes
  }

  /** The nodes blob this PATCH superseded (to delete once it is accepted), if any. */
  get superseded(): string | null {
    return this.writtenNodes ? this.savedNodes : null
  }

  /** The state to save with this PATCH's advance. */
  serialize(): string {
    if (this.made.length > 0) throw new PinfoldError('INTERNAL', 'file nodes were made but not stored')
    const state: StagedDagState = {
      frontier: this.frontier.serialize(),
      nodes: this.writtenNodes ?? this.savedNodes,
      unindexed: { offset: this.fresh.offset, leaves: Buffer.concat(this.fresh.digests).toString('base64') },
    }
    return JSON.stringify(state)
  }

  /** Closes the DAG (see {@link BalancedDagFrontier.close}): the root, and the nodes the completion made. */
  close(): { root: CID; nodes: Block[] } {
    const { root, nodes } = this.frontier.close()
    return { root, nodes: [...this.made.splice(0), ...nodes] }
  }

  /** The nodes completed before the completion, from the saved blob. */
  savedNodeBlocks(blobs: BlobStore, options: CallOptions): AsyncGenerator<Block> {
    const saved = this.savedNodes
    return (async function* () {
      if (saved) yield* readNodes(blobs, saved, options)
    })()
  }

  /** Blob keys a session's DAG state refers to (for the session's cleanup; an unreadable state names none). */
  static blobKeys(staged: SessionStagedWrite): string[] {
    try {
      const nodes = staged.dag === undefined ? null : (JSON.parse(staged.dag) as StagedDagState).nodes
      return nodes ? [nodes] : []
    } catch {
      return []
    }
  }
}

async function* readNodes(blobs: BlobStore, key: string, options: CallOptions): AsyncGenerator<Block> {
  const car = await CarBlockIterator.fromIterable(await blobs.get(key, options))
  for await (const { cid, bytes } of car) yield { cid, bytes }
}
