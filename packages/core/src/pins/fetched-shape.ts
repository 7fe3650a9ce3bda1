import * as dagPb from '@ipld/dag-pb'
import { UnixFS } from 'ipfs-unixfs'
import type { CID } from 'multiformats/cid'
import { DAG_PB_CODE, RAW_CODE } from '../content/dag/blocks.js'
import { SNIFF_BYTES } from '../mime/mime.js'

/**
 * Where a block sits in a fetched DAG, as far as its file record cares: the `root`; a directory
 * `entry` (counted when it is a file); on the `head` path (first links from a file's root, whose
 * first leaf's bytes tell its MIME type); or anything else (`inner`).
 */
export type BlockRole = 'root' | 'entry' | 'head' | 'inner'

/** What a file record says about a DAG fetched block by block (pin by CID), observed as blocks arrive. */
export interface FetchedShape {
  /** Notes a verified block with `links` links and returns their roles, in link order. */
  observe(cid: CID, bytes: Uint8Array, role: BlockRole, links: number): BlockRole[]
  /** `directory`, `file` (UnixFS file or raw) or `other` (dag-cbor, or dag-pb without UnixFS data). */
  readonly kind: 'directory' | 'file' | 'other'
  /** Files found as directory entries (for a directory root). */
  readonly files: number
  /** The first bytes of the file (for a file root), for MIME sniffing. */
  readonly head: Uint8Array
}

export function fetchedShape(): FetchedShape {
  let kind: FetchedShape['kind'] = 'other'
  let files = 0
  let head: Uint8Array = new Uint8Array(0)

  return {
    observe(cid, bytes, role, links) {
      const node = describe(cid, bytes)
      if (role === 'root') kind = node.type === 'directory' ? 'directory' : node.type === 'file' ? 'file' : 'other'
      if (role === 'entry' && node.type === 'file') files++
      if ((role === 'root' || role === 'head') && node.type === 'file' && links === 0) {
        head = node.data.subarray(0, SNIFF_BYTES)
      }
      return Array.from({ length: links }, (_, index): BlockRole => {
        if (node.type === 'directory') return 'entry'
        if (node.type === 'file' && (role === 'root' || role === 'head') && index === 0) return 'head'
        return 'inner'
      })
    },
    get kind() {
      return kind
    },
    get files() {
      return files
    },
    get head() {
      return head
    },
  }
}

interface NodeFacts {
  type: 'directory' | 'file' | 'other'
  data: Uint8Array
}

/** The block was verified and its links decoded already (dag-pb parses), so only UnixFS data can still be malformed. */
function describe(cid: CID, bytes: Uint8Array): NodeFacts {
  if (cid.code === RAW_CODE) return { type: 'file', data: bytes }
  if (cid.code !== DAG_PB_CODE) return { type: 'other', data: bytes }
  const node = dagPb.decode(bytes)
  try {
    const unixfs = node.Data ? UnixFS.unmarshal(node.Data) : undefined
    if (unixfs?.type === 'directory' || unixfs?.type === 'hamt-sharded-directory') {
      return { type: 'directory', data: new Uint8Array(0) }
    }
    if (unixfs?.type === 'file' || unixfs?.type === 'raw') {
      return { type: 'file', data: unixfs.data ?? new Uint8Array(0) }
    }
  } catch {
    // dag-pb without UnixFS data is still a valid DAG to keep
  }
  return { type: 'other', data: new Uint8Array(0) }
}
