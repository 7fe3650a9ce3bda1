import { createHash } from 'node:crypto'
import * as dagPb from '@ipld/dag-pb'
import { UnixFS } from 'ipfs-unixfs'
import { decode as decodeMultihash } from 'multiformats/hashes/digest'
import { sha512 } from 'multiformats/hashes/sha2'
import { PinfoldError } from '../errors.js'
import type { BlockLocation } from '../ports/block-records.js'
import type { BlobStore, CallOptions } from '../ports.js'
import { indexKeyOf, readAll } from './car-blob.js'

const SHA2_256 = 0x12

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

/** Throws `INTERNAL` unless `bytes` hash to `multihash` (sha2-256 natively, sha2-512 through multiformats). */
export async function checkHash(multihash: Uint8Array, bytes: Uint8Array): Promise<void> {
  const { code, digest } = decodeMultihash(multihash)
  let actual: Uint8Array
  if (code === SHA2_256) actual = createHash('sha256').update(bytes).digest()
  else if (code === sha512.code) actual = (await sha512.digest(bytes)).digest
  else throw new PinfoldError('INTERNAL', `stored block uses unsupported hash 0x${code.toString(16)}`)
  if (Buffer.compare(Buffer.from(actual), Buffer.from(digest)) !== 0) {
    throw new PinfoldError('INTERNAL', 'stored bytes do not hash to their block')
  }
}
