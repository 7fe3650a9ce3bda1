import * as dagPb from '@ipld/dag-pb'
import { UnixFS } from 'ipfs-unixfs'
import { varint } from 'multiformats'
import type { CID } from 'multiformats/cid'
import { blockKey, blockLinks, DAG_PB_CODE, isIdentity, RAW_CODE } from '../dag/blocks.js'
import type { ContentDag } from '../dag/content-dag.js'
import { PinfoldError, throwIfAborted } from '../errors.js'
import type { CallOptions } from '../ports.js'

export type DagScope = 'block' | 'entity' | 'all'

/** An inclusive byte range of `entity-bytes`, already resolved against the file's size. */
export interface EntityBytes {
  from: number
  to: number
}

export interface Block {
  cid: CID
  bytes: Uint8Array
}

/** CARv1 bytes: the header naming `root`, then one section per block, streamed as they come. */
export async function* encodeCar(root: CID, blocks: AsyncIterable<Block>): AsyncGenerator<Uint8Array> {
  yield withLength(carHeader(root))
  for await (const { cid, bytes } of blocks) {
    const size = cid.bytes.length + bytes.length
    const prefix = varint.encodingLength(size)
    const section = new Uint8Array(prefix + cid.bytes.length)
    varint.encodeTo(size, section, 0)
    section.set(cid.bytes, prefix)
    yield section
    yield bytes
  }
}

/** DAG-CBOR `{roots: [root], version: 1}`, encoded by hand (keys in DAG-CBOR's length-first order). */
function carHeader(root: CID): Uint8Array {
  const cidBytes = new Uint8Array(root.bytes.length + 1) // tag 42 payload: 0x00 multibase prefix + CID
  cidBytes.set(root.bytes, 1)
  const parts: number[] = [0xa2, 0x65, ...ascii('roots'), 0x81, 0xd8, 0x2a]
  if (cidBytes.length < 24) parts.push(0x40 + cidBytes.length)
  else if (cidBytes.length < 256) parts.push(0x58, cidBytes.length)
  else throw new PinfoldError('INTERNAL', 'CID too long for a CAR header')
  parts.push(...cidBytes, 0x67, ...ascii('version'), 0x01)
  return Uint8Array.from(parts)
}

function withLength(bytes: Uint8Array): Uint8Array {
  const prefix = varint.encodingLength(bytes.length)
  const out = new Uint8Array(prefix + bytes.length)
  varint.encodeTo(bytes.length, out, 0)
  out.set(bytes, prefix)
  return out
}

const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0))

/**
 * The blocks of a trustless CAR response below the path's terminal: `block` = the terminal
 * only; `entity` = a file's whole DAG (or the `entityBytes` part of it), a directory's own
 * node(s) (every HAMT shard node, no children); `all` = everything reachable. Each block once.
 */
export async function* scopedBlocks(
  dag: ContentDag,
  terminal: CID,
  scope: DagScope,
  entityBytes: EntityBytes | undefined,
  seen: Set<string>,
  options?: CallOptions,
): AsyncGenerator<Block> {
  const get = async (cid: CID) => {
    if (isIdentity(cid)) return cid.multihash.digest
    const bytes = await dag.getBlock(cid, options)
    if (!bytes) throw new PinfoldError('INTERNAL', `block ${cid} is missing`)
    return bytes
  }
  const emit = (cid: CID, bytes: Uint8Array): Block[] => {
    const key = blockKey(cid)
    if (seen.has(key) || isIdentity(cid)) return []
    seen.add(key)
    return [{ cid, bytes }]
  }

  if (scope === 'all' && terminal.equals(dag.root) && seen.size === 0) {
    yield* dag.blocks(options) // the content's own streaming walk (bounded memory, one blob pass for files)
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
      if (seen.has(blockKey(cid))) continue
      const bytes = await get(cid)
      yield* emit(cid, bytes)
      stack.push(...blockLinks(cid, bytes).reverse())
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
      const cid = stack.pop()!
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
