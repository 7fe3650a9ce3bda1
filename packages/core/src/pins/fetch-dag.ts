import type { BlockFetcher, PinFailure } from '@pinfold/interface'
import { abortError } from '@pinfold/interface'
import { CID } from 'multiformats/cid'
import { blockKey, blockLinks, isIdentity, unkeepable, verifyBlock } from '../content/dag/blocks.js'
import type { CarBlobWriter } from '../content/dag/car-blob.js'
import { type BlockRole, type FetchedShape, fetchedShape } from './fetched-shape.js'

/** Bounds of one DAG fetch (pin by CID). */
export interface DagFetchLimits {
  /** Sum of the distinct blocks' sizes. */
  maxBytes: number
  maxBlocks: number
  /** Blocks fetched at the same time. */
  concurrency: number
  /** How long one fetcher may take over one block; then it counts as a miss and the next is asked. */
  blockTimeoutMs: number
}

/** A fetch that ended for one of the reasons a pin request can fail for. */
export class DagFetchFailure extends Error {
  constructor(
    readonly failure: PinFailure,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options)
    this.name = 'DagFetchFailure'
  }
}

export interface DagFetchOptions {
  signal: AbortSignal
  hostNodes?: readonly string[] | undefined
  /** Why a block may not be kept (a deny rule names it), asked before each block is fetched. */
  refusal?: ((cid: CID) => Error | undefined) | undefined
}

/**
 * Fetches the whole DAG below `root` block by block through `fetchers` and appends every distinct
 * block to `writer`. Each block is asked of the fetchers in order — the first that answers wins,
 * so a cheap or preferred source (a gateway next door, the requester's own node) is tried before
 * the rest and no block is downloaded twice — and re-hashed against its CID; bytes that do not
 * hash to it are refused and the next fetcher asked. Links of dag-pb, raw and dag-cbor blocks are
 * followed, up to `limits.concurrency` blocks in flight; only those and the CIDs still to fetch are
 * in memory, never the DAG. Ends with a {@link DagFetchFailure} (`not_found`, `too_large`,
 * `invalid_object`), or `ABORTED` when the signal fires.
 */
export async function fetchDag(
  root: CID,
  fetchers: readonly BlockFetcher[],
  writer: CarBlobWriter,
  limits: DagFetchLimits,
  options: DagFetchOptions,
): Promise<FetchedShape> {
  const { signal } = options
  const shape = fetchedShape()
  // a stack: links are taken depth first, so a file's blocks are written near each other
  const pending: { cid: CID; role: BlockRole }[] = [{ cid: root, role: 'root' }]
  // every distinct block met, fetched or still to fetch: capped at `maxBlocks` as links are read,
  // so neither it nor `pending` outgrows the cap whatever the blocks link to
  const seen = new Set<string>([blockKey(root)])
  let bytes = 0

  async function visit(cid: CID, role: BlockRole): Promise<void> {
    // an identity CID carries its bytes in itself: nothing to fetch or store, but it may link on
    const block = isIdentity(cid) ? cid.multihash.digest : await fetchVerified(cid)
    if (!isIdentity(cid)) {
      bytes += block.length
      if (bytes > limits.maxBytes)
        throw new DagFetchFailure('too_large', `the DAG is larger than ${limits.maxBytes} bytes`)
    }
    let links: CID[]
    try {
      links = blockLinks(cid, block)
    } catch (error) {
      throw new DagFetchFailure('invalid_object', (error as Error).message)
    }
    const roles = shape.observe(cid, block, role, links.length)
    await writer.put(cid, block)
    // pushed last-first so the first link is taken next
    for (let i = links.length - 1; i >= 0; i--) {
      const link = links[i]!
      const id = blockKey(link)
      if (seen.has(id)) continue
      seen.add(id)
      if (seen.size > limits.maxBlocks)
        throw new DagFetchFailure('too_large', `the DAG has more than ${limits.maxBlocks} blocks`)
      // a copy: a decoded link's multihash is a view of its block (dag-pb), which would keep every
      // block with a link still to fetch in memory, up to the whole DAG
      pending.push({ cid: CID.decode(link.bytes.slice()), role: roles[i] ?? 'inner' })
    }
  }

  async function fetchVerified(cid: CID): Promise<Uint8Array> {
    const problem = await unkeepable(cid)
    if (problem) throw new DagFetchFailure('invalid_object', `block ${cid} ${problem}`)
    const blocked = options.refusal?.(cid)
    // nothing of a DAG with a blocked block is kept: the whole pin fails, saying which rule
    if (blocked) throw new DagFetchFailure('invalid_object', blocked.message, { cause: blocked })
    const misses: string[] = []
    let refused: string | undefined
    for (const fetcher of fetchers) {
      let block: Uint8Array
      // a source that accepts and never answers is given up on this block, not waited on for the job
      const budget = new AbortController()
      const timer = setTimeout(() => budget.abort(), limits.blockTimeoutMs)
      const stop = () => budget.abort(signal.reason)
      signal.addEventListener('abort', stop, { once: true })
      try {
        block = await fetcher.getBlock(cid.toString(), { signal: budget.signal, hostNodes: options.hostNodes })
      } catch (error) {
        if (signal.aborted) throw abortError(signal)
        const why = budget.signal.aborted ? `no answer within ${limits.blockTimeoutMs} ms` : (error as Error).message
        misses.push(`${fetcher.name}: ${why}`)
        continue
      } finally {
        clearTimeout(timer)
        signal.removeEventListener('abort', stop)
      }
      try {
        await verifyBlock(cid, block)
        return block
      } catch (error) {
        refused = `${fetcher.name} sent a block that is not ${cid}: ${(error as Error).message}`
      }
    }
    if (refused) throw new DagFetchFailure('invalid_object', refused)
    if (fetchers.length === 0) {
      throw new DagFetchFailure('not_found', `block ${cid} is not held here and no block source is configured`)
    }
    throw new DagFetchFailure('not_found', `block ${cid} was not found (${misses.join('; ')})`)
  }

  await new Promise<void>((resolve, reject) => {
    let active = 0
    let failed = false
    const fail = (error: unknown) => {
      if (failed) return
      failed = true
      reject(error)
    }
    const pump = () => {
      while (!failed && active < limits.concurrency && pending.length > 0) {
        const next = pending.pop()!
        active++
        visit(next.cid, next.role).then(() => {
          active--
          if (failed) return
          if (pending.length === 0 && active === 0) resolve()
          else pump()
        }, fail)
      }
    }
    signal.addEventListener('abort', () => fail(abortError(signal)), { once: true })
    if (signal.aborted) fail(abortError(signal))
    else pump()
  })
  return shape
}
