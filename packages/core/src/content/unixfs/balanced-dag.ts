import { createHash } from 'node:crypto'
import * as dagPb from '@ipld/dag-pb'
import { PinfoldError } from '@pinfold/interface'
import { UnixFS } from 'ipfs-unixfs'
import { CID } from 'multiformats/cid'
import * as raw from 'multiformats/codecs/raw'
import * as Digest from 'multiformats/hashes/digest'
import { sha256 } from 'multiformats/hashes/sha2'
import type { Block } from '../dag/blocks.js'

/** Links per file node of Kubo's balanced layout (`kuboImporterOptions`). */
export const BALANCED_WIDTH = 174

/** A link waiting in the frontier: a raw leaf or a file node, with what its parent records of it. */
interface Link {
  cid: CID
  /** The link's Tsize: the bytes of the whole subtree (blocks included). */
  tsize: number
  /** The file bytes under it: its parent's `blockSizes` entry. */
  fileSize: number
}

/** The frontier as stored (JSON): per level, the CIDs (binary, base64, one after another) and sizes. */
interface FrontierState {
  levels: { cids: string; tsizes: number[]; fileSizes: number[] }[]
}

/**
 * The CIDv1 raw-leaf DAG of Kubo's balanced layout (`ipfs-unixfs-importer` with
 * `kuboImporterOptions('v1')`), built while the leaves arrive: every 174 links of a level make a
 * file node at once, so only the open node of each level waits — the frontier, O(levels) links
 * however long the file. A resumable upload keeps it in its session between PATCHes, so the
 * completion only closes the frontier instead of building the DAG from every leaf.
 *
 * The importer's layout groups a level's items into batches of 174 and reduces each batch to a
 * node (even a batch of one, unless the whole file is a single leaf), then repeats on the nodes
 * until one remains; closing the frontier does the same with the batches still open, bottom up.
 * Nodes are encoded as the importer's reducer encodes them (dag-pb, UnixFS `file` with
 * `blockSizes`), which the tests check against the importer itself.
 */
export class BalancedDagFrontier {
  private readonly levels: Link[][]

  private constructor(levels: Link[][]) {
    this.levels = levels
  }

  static empty(): BalancedDagFrontier {
    return new BalancedDagFrontier([[]])
  }

  /** A frontier from {@link serialize}'s output. */
  static restore(serialized: string): BalancedDagFrontier {
    try {
      const state = JSON.parse(serialized) as FrontierState
      const levels = state.levels.map(({ cids, tsizes, fileSizes }) => {
        const bytes = Buffer.from(cids, 'base64')
        const links: Link[] = []
        for (let at = 0, i = 0; at < bytes.length; i++) {
          const [cid, rest] = CID.decodeFirst(bytes.subarray(at))
          links.push({ cid, tsize: tsizes[i]!, fileSize: fileSizes[i]! })
          at = bytes.length - rest.length
        }
        return links
      })
      if (levels.length === 0) throw new Error('no level')
      return new BalancedDagFrontier(levels)
    } catch (cause) {
      throw new PinfoldError('INTERNAL', 'an upload session holds a DAG frontier it cannot read', { cause })
    }
  }

  serialize(): string {
    const state: FrontierState = {
      levels: this.levels.map((links) => ({
        cids: Buffer.concat(links.map((link) => link.cid.bytes)).toString('base64'),
        tsizes: links.map((link) => link.tsize),
        fileSizes: links.map((link) => link.fileSize),
      })),
    }
    return JSON.stringify(state)
  }

  /** Whether no leaf was added yet. */
  get isEmpty(): boolean {
    return this.levels.length === 1 && this.levels[0]!.length === 0
  }

  /**
   * Adds the next raw leaf (its SHA-256 and byte count; only the file's last leaf may be short) and
   * answers the file nodes it completed, lowest level first.
   */
  addLeaf(digest: Uint8Array, size: number): Block[] {
    const cid = CID.createV1(raw.code, Digest.create(sha256.code, digest))
    const completed: Block[] = []
    this.push(0, { cid, tsize: size, fileSize: size }, completed)
    return completed
  }

  /**
   * Ends the file: reduces the open batches bottom up, as the importer's layout does, and answers
   * the root's CID with the nodes made on the way. The frontier is spent afterwards.
   */
  close(): { root: CID; nodes: Block[] } {
    const nodes: Block[] = []
    // an empty file is one empty leaf, as with the stock chunker
    if (this.isEmpty) this.push(0, emptyLeaf(), nodes)
    for (let level = 0; ; level++) {
      const links = this.levels[level]!
      const top = level === this.levels.length - 1
      if (top && links.length === 1) return { root: links[0]!.cid, nodes }
      if (links.length > 0) {
        this.levels[level] = []
        this.push(level + 1, reduce(links, nodes), nodes)
      }
    }
  }

  private push(level: number, link: Link, completed: Block[]): void {
    const links = this.levels[level] ?? []
    this.levels[level] = links
    links.push(link)
    if (links.length < BALANCED_WIDTH) return
    this.levels[level] = []
    this.push(level + 1, reduce(links, completed), completed)
  }
}

/** One file node over `links`, encoded as the importer's reducer does; the block goes to `made`. */
function reduce(links: readonly Link[], made: Block[]): Link {
  const file = new UnixFS({ type: 'file' })
  // the importer leaves out links to empty leaves (only an empty file has one, and it is never reduced)
  const kept = links.filter((link) => link.fileSize > 0)
  for (const link of kept) file.addBlockSize(BigInt(link.fileSize))
  const node = { Data: file.marshal(), Links: kept.map((link) => ({ Name: '', Tsize: link.tsize, Hash: link.cid })) }
  const bytes = dagPb.encode(dagPb.prepare(node))
  const cid = CID.createV1(dagPb.code, Digest.create(sha256.code, createHash('sha256').update(bytes).digest()))
  made.push({ cid, bytes })
  return {
    cid,
    tsize: bytes.length + kept.reduce((sum, link) => sum + link.tsize, 0),
    fileSize: kept.reduce((sum, link) => sum + link.fileSize, 0),
  }
}

function emptyLeaf(): Link {
  const cid = CID.createV1(raw.code, Digest.create(sha256.code, createHash('sha256').digest()))
  return { cid, tsize: 0, fileSize: 0 }
}
