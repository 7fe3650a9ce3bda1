import * as dagPb from '@ipld/dag-pb'
import type { ByteRange, CallOptions } from '@pinfold/interface'
import { PinfoldError, throwIfAborted } from '@pinfold/interface'
import { UnixFS } from 'ipfs-unixfs'
import type { CID } from 'multiformats/cid'
import { RAW_CODE } from '../content/dag/blocks.js'
import type { WorkBudget } from './work-budget.js'

/** Deeper than any honest UnixFS file (Kubo's layouts stay under ten levels for petabytes). */
const MAX_DEPTH = 64

const unprocessable = (message: string) => new PinfoldError('UNPROCESSABLE', message)

/**
 * The bytes of a UnixFS file (or raw block) read block by block, in order, one block at a time:
 * only the subtrees that overlap `range` are fetched, every fetch is charged to `budget`, and a
 * DAG that contradicts itself (sizes that do not add up, non-file nodes) ends the read with
 * `UNPROCESSABLE`. Subtrees linked many times are read as often as they are linked, which is
 * what the file says; the budget stops a DAG that repeats without producing bytes.
 */
export async function* readUnixfsFile(
  root: CID,
  getBlock: (cid: CID) => Promise<Uint8Array>,
  range: ByteRange | undefined,
  budget: WorkBudget,
  options?: CallOptions,
): AsyncGenerator<Uint8Array> {
  const from = range?.offset ?? 0
  const to = range?.length === undefined ? Number.POSITIVE_INFINITY : from + range.length
  const fetch = (cid: CID) => budget.read(() => getBlock(cid))
  /** Yields the part of `data` (placed at `start` in the file) that lies inside the range. */
  function* clip(data: Uint8Array, start: number): Generator<Uint8Array> {
    const begin = Math.max(from - start, 0)
    const end = Math.min(to - start, data.length)
    if (begin < end) yield data.subarray(begin, end)
  }
  async function* walk(cid: CID, bytes: Uint8Array, start: number, depth: number): AsyncGenerator<Uint8Array> {
    throwIfAborted(options?.signal)
    if (depth > MAX_DEPTH) throw unprocessable('this file DAG is nested too deeply')
    if (cid.code === RAW_CODE) {
      budget.earn(bytes.length)
      yield* clip(bytes, start)
      return
    }
    // the file bytes a node holds earn reads; the node is decoded once, here
    const { data, links, sizes } = fileNode(cid, bytes)
    budget.earn(data.length)
    yield* clip(data, start)
    let offset = start + data.length
    for (let i = 0; i < links.length && offset < to; i++) {
      const size = sizes[i]!
      if (offset + size > from) {
        const child = links[i]!
        const produced = yield* counted(walk(child, await fetch(child), offset, depth + 1))
        if (produced !== Math.min(offset + size, to) - Math.max(offset, from)) {
          throw unprocessable(`block ${child} does not hold the ${size} bytes its parent says`)
        }
      }
      offset += size
    }
  }
  yield* walk(root, await fetch(root), 0, 0)
}

/** Passes a subtree's chunks through and answers how many bytes it produced. */
async function* counted(source: AsyncGenerator<Uint8Array>): AsyncGenerator<Uint8Array, number> {
  let total = 0
  for await (const chunk of source) {
    total += chunk.length
    yield chunk
  }
  return total
}

function fileNode(cid: CID, bytes: Uint8Array) {
  let node: dagPb.PBNode
  let unixfs: UnixFS
  try {
    node = dagPb.decode(bytes)
    if (!node.Data) throw new Error('no data')
    unixfs = UnixFS.unmarshal(node.Data)
  } catch (cause) {
    throw new PinfoldError('UNPROCESSABLE', `block ${cid} is not a UnixFS node`, { cause })
  }
  if (unixfs.type !== 'file' && unixfs.type !== 'raw') throw unprocessable(`block ${cid} is not part of a file`)
  const sizes = unixfs.blockSizes.map(Number)
  if (sizes.length !== node.Links.length) throw unprocessable(`block ${cid} has inconsistent block sizes`)
  return { data: unixfs.data ?? new Uint8Array(0), links: node.Links.map((link) => link.Hash), sizes }
}
