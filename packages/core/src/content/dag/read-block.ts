import * as dagPb from '@ipld/dag-pb'
import type { BlobStore, BlockLocation, CallOptions } from '@pinfold/interface'
import { PinfoldError } from '@pinfold/interface'
import { UnixFS } from 'ipfs-unixfs'
import { decode as decodeMultihash } from 'multiformats/hashes/digest'
import { digestOf } from './blocks.js'
import { indexKeyOf, readAll } from './car-blob.js'

/**
 * A block's bytes from where the block index says they are, checked against the block's
 * multihash: stored bytes that no longer hash to their block are never served (`INTERNAL`).
 */
export async function readBlock(
  blobs: BlobStore,
  blobKey: string,
  location: BlockLocation,
  options: CallOptions = {},
): Promise<Uint8Array> {
  const key = location.source === 'sidecar' ? indexKeyOf(blobKey) : blobKey
  const range = { offset: location.offset, length: location.length }
  const data = location.length === 0 ? new Uint8Array(0) : await readAll(await blobs.get(key, { ...options, range }))
  if (data.length !== location.length) throw new PinfoldError('INTERNAL', `the blob ${key} is truncated`)
  const bytes = location.source === 'unixfs-leaf' ? unixfsLeaf(data) : data
  await checkHash(location.multihash, bytes)
  return bytes
}

/** A UnixFS `file` leaf node holding `data`, byte for byte as the importer encodes CIDv0 leaves. */
export function unixfsLeaf(data: Uint8Array): Uint8Array {
  return dagPb.encode({ Data: new UnixFS({ type: 'file', data }).marshal(), Links: [] })
}

/** Throws `INTERNAL` unless stored `bytes` hash to `multihash`: our own bytes, so a mismatch is corruption. */
export async function checkHash(multihash: Uint8Array, bytes: Uint8Array): Promise<void> {
  const { code, digest } = decodeMultihash(multihash)
  const actual = await digestOf(code, bytes)
  if (!actual) throw new PinfoldError('INTERNAL', `stored block uses unsupported hash 0x${code.toString(16)}`)
  if (!Buffer.from(actual).equals(digest)) throw new PinfoldError('INTERNAL', 'stored bytes do not hash to their block')
}
