import * as dagPb from '@ipld/dag-pb'
import type { CallOptions } from '@pinfold/interface'
import { PinfoldError, throwIfAborted } from '@pinfold/interface'
import { UnixFS } from 'ipfs-unixfs'
import type { CID } from 'multiformats/cid'
import {
  type Block,
  blockKey,
  blockLinks,
  DAG_PB_CODE,
  isIdentity,
  isLeafBlock,
  RAW_CODE,
} from '../content/dag/blocks.js'
import { carBytes } from '../content/dag/car-bytes.js'
import type { ContentDag } from './content-dag.js'
import type { WorkBudget } from './work-budget.js'

export type DagScope = 'block' | 'entity' | 'all'

/** An inclusive byte range of `entity-bytes`, already resolved against the file's size. */
export interface EntityBytes {
  from: number
  to: number
}

/** A CARv1 response body: the header naming `root`, then the blocks as they come (`@ipld/car`'s encoder). */
export const encodeCar = (root: CID, blocks: AsyncIterable<Block>) => carBytes(root, blocks)

/**
 * The blocks of a trustless CAR response below the path's terminal: `block` = the terminal
 * only; `entity` = a file's whole DAG (or the `entityBytes` part of it), a directory's own
 * node(s) (every HAMT shard node, no children); `all` = everything reachable. Depth-first; each
 * block once (`dups=n`), or every time the walk meets it with `dups` (`dups=y`, within `budget`).
 */
export async function* scopedBlocks(
  dag: ContentDag,
  scope: DagScope,
  entityBytes: EntityBytes | undefined,
  seen: Set<string>,
  budget: WorkBudget,
  options?: CallOptions & { dups?: boolean },
): AsyncGenerator<Block> {
  const dups = options?.dups === true
  const terminal = dag.root
  const get = async (cid: CID) => {
    if (isIdentity(cid)) return budget.read(async () => cid.multihash.digest)
    const bytes = await budget.read(() => dag.getBlock(cid, options))
    if (!bytes) throw new PinfoldError('INTERNAL', `block ${cid} is missing`)
    if (isLeafBlock(cid, bytes)) budget.earn(bytes.length)
    return bytes
  }
  /** Whether the walk skips a block it has already sent (and, in `all`, the subtree below it). */
  const skips = (cid: CID) => !dups && seen.has(blockKey(cid))
  const emit = (cid: CID, bytes: Uint8Array): Block[] => {
    if (skips(cid) || isIdentity(cid)) return []
    seen.add(blockKey(cid))
    return [{ cid, bytes }]
  }

  if (scope === 'all' && seen.size === 0 && !dups) {
    yield* dag.blocks(options) // the content's own walk: each distinct block once, one blob pass for files
    return
  }
  const rootBytes = await get(terminal)
  yield* emit(terminal, rootBytes)
  if (scope === 'block') return

  if (scope === 'all') {
    const stack = blockLinks(terminal, rootBytes).reverse()
    while (stack.length > 0) {
      throwIfAborted(options?.signal)
      const cid = stack.pop()!
      if (skips(cid)) continue
      const bytes = await get(cid)
      yield* emit(cid, bytes)
      stack.push(
        ...blockLinks(cid, bytes)
          .filter((link) => !skips(link))
          .reverse(),
      )
    }
    return
  }

  // entity
  const kind = unixfsType(terminal, rootBytes)
  if (kind === 'directory') return
  if (kind === 'hamt-sharded-directory') {
    // the shard nodes: links whose names are only the 2-character bucket prefix
    const stack = shardChildren(rootBytes).reverse()
    while (stack.length > 0) {
      throwIfAborted(options?.signal)
      const cid = stack.pop()!
      if (skips(cid)) continue // shard nodes linked many times are walked once (dups=n)
      const bytes = await get(cid)
      yield* emit(cid, bytes)
      stack.push(...shardChildren(bytes).reverse())
    }
    return
  }
  if (kind !== 'file') return // raw leaf, symlink, other codecs: the block is the entity
  yield* fileRange(terminal, rootBytes, 0, entityBytes)

  async function* fileRange(
    cid: CID,
    bytes: Uint8Array,
    start: number,
    range: EntityBytes | undefined,
  ): AsyncGenerator<Block> {
    if (cid.code !== DAG_PB_CODE) return
    const node = dagPb.decode(bytes)
    const unixfs = node.Data ? UnixFS.unmarshal(node.Data) : undefined
    const sizes = unixfs?.blockSizes.map(Number) ?? []
    let offset = start + (unixfs?.data?.length ?? 0)
    for (let i = 0; i < node.Links.length; i++) {
      throwIfAborted(options?.signal)
      const child = node.Links[i]!.Hash
      const size = sizes[i] ?? 0
      const overlaps = !range || (offset <= range.to && offset + size - 1 >= range.from && size > 0)
      if (overlaps) {
        const childBytes = await get(child)
        yield* emit(child, childBytes)
        if (child.code !== RAW_CODE) yield* fileRange(child, childBytes, offset, range)
      }
      offset += size
    }
  }
}

/** The UnixFS type of a dag-pb node (`undefined` for other codecs or non-UnixFS nodes). */
export function unixfsType(cid: CID, bytes: Uint8Array): string | undefined {
  if (cid.code !== DAG_PB_CODE) return undefined
  try {
    const node = dagPb.decode(bytes)
    return node.Data ? UnixFS.unmarshal(node.Data).type : undefined
  } catch {
    return undefined
  }
}

function shardChildren(bytes: Uint8Array): CID[] {
  return dagPb
    .decode(bytes)
    .Links.filter((link) => (link.Name ?? '').length === 2)
    .map((link) => link.Hash)
}
