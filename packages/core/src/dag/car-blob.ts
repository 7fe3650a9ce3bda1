import * as dagCbor from '@ipld/dag-cbor'
import { varint } from 'multiformats'
import { CID } from 'multiformats/cid'
import { identity } from 'multiformats/hashes/identity'
import { PinfoldError } from '../errors.js'
import type { BlobStore, CallOptions } from '../ports.js'
import { pushable } from '../streams/pushable.js'
import { blockKey, isIdentity } from './blocks.js'

/**
 * Stored CARs (content kind `car`) and their block indexes.
 *
 * The blob at `blobKey` is a CARv1. When the root is unknown until the DAG is built (folder
 * imports), the header carries {@link PLACEHOLDER_ROOT} and the content record holds the real
 * root: CARv1 roots are informational for Pinfold, which always reads a DAG from its record's CID.
 *
 * Beside it, `${blobKey}.idx` is the block index, written once the CAR is complete:
 * `PFCARIDX1\n` followed by one entry per distinct block, in CAR order:
 * `varint(cid byte length) | cid bytes | varint(block offset) | varint(block length)`, where the
 * offset is the block's first byte in the CAR blob. Reading one block is one ranged blob read.
 */
export const PLACEHOLDER_ROOT = CID.createV1(0x55, identity.digest(new Uint8Array(0)))

const INDEX_MAGIC = new TextEncoder().encode('PFCARIDX1\n')

/** The sidecar of a content's blob: a CAR's block index, or a file's DAG inner nodes (`file-dag-index.ts`). */
export const indexKeyOf = (blobKey: string) => `${blobKey}.idx`

export interface BlockLocation {
  offset: number
  length: number
}

export interface WrittenCar {
  /** Bytes of the CAR blob. */
  size: number
  /** Sum of the distinct blocks' sizes: the DAG's size. */
  dagSize: number
  /** Where each block lies, keyed by {@link blockKey}. */
  locations: Map<string, BlockLocation & { cid: CID }>
}

export interface CarBlobWriter {
  /** Appends a block unless one with the same multihash was written already. Identity blocks are skipped. */
  put(cid: CID, bytes: Uint8Array): Promise<void>
  /** Completes the CAR blob, then writes its index; on failure removes both. */
  close(): Promise<WrittenCar>
  /** Stops writing; nothing is left under the CAR's keys once the returned promise settles. */
  abort(error: unknown): Promise<void>
}

/** Streams a CARv1 into `blobs` under `key` as blocks arrive (bounded memory apart from the index). */
export function createCarBlobWriter(
  blobs: BlobStore,
  key: string,
  root: CID,
  options: CallOptions = {},
): CarBlobWriter {
  const channel = pushable<Uint8Array>()
  const stored = blobs.put(key, channel.iterable, options)
  // the rejection is observed by close/abort; this keeps it from being reported as unhandled meanwhile
  stored.catch(() => {})
  const header = dagCbor.encode({ version: 1, roots: [root] })
  const locations = new Map<string, BlockLocation & { cid: CID }>()
  let position = 0
  let dagSize = 0
  let started = false

  const write = async (bytes: Uint8Array) => {
    try {
      await channel.push(bytes)
    } catch (error) {
      await stored // the blob store's own failure explains why it stopped reading
      throw error
    }
    position += bytes.length
  }
  const start = async () => {
    if (started) return
    started = true
    await write(concat([varintBytes(header.length), header]))
  }

  return {
    async put(cid, bytes) {
      await start()
      if (isIdentity(cid)) return
      const id = blockKey(cid)
      if (locations.has(id)) return
      const prefix = concat([varintBytes(cid.bytes.length + bytes.length), cid.bytes])
      locations.set(id, { cid, offset: position + prefix.length, length: bytes.length })
      dagSize += bytes.length
      await write(prefix)
      await write(bytes)
    },
    async close() {
      await start()
      channel.end()
      const { size } = await stored
      try {
        await blobs.put(indexKeyOf(key), once(encodeIndex(locations.values())), options)
      } catch (error) {
        await blobs.delete(key).catch(() => {})
        throw error
      }
      return { size, dagSize, locations }
    },
    async abort(error) {
      channel.fail(error)
      await stored.catch(() => {})
      await deleteContentBlobs(blobs, key)
    },
  }
}

/** Deletes a content's blob and its `.idx` sidecar, whichever exist; failures are left to the orphan sweep. */
export async function deleteContentBlobs(blobs: BlobStore, key: string): Promise<void> {
  await Promise.all([blobs.delete(key).catch(() => {}), blobs.delete(indexKeyOf(key)).catch(() => {})])
}

function encodeIndex(entries: Iterable<BlockLocation & { cid: CID }>): Uint8Array {
  const parts: Uint8Array[] = [INDEX_MAGIC]
  for (const { cid, offset, length } of entries) {
    parts.push(varintBytes(cid.bytes.length), cid.bytes, varintBytes(offset), varintBytes(length))
  }
  return concat(parts)
}

/** Reads a CAR's block index (see the module comment) into a map keyed by {@link blockKey}. */
export async function readCarIndex(
  blobs: BlobStore,
  blobKey: string,
  options: CallOptions = {},
): Promise<Map<string, BlockLocation>> {
  const bytes = await readAll(await blobs.get(indexKeyOf(blobKey), options))
  const corrupt = () => new PinfoldError('INTERNAL', `the block index of ${blobKey} is corrupt`)
  if (Buffer.compare(Buffer.from(bytes.subarray(0, INDEX_MAGIC.length)), Buffer.from(INDEX_MAGIC)) !== 0)
    throw corrupt()
  const index = new Map<string, BlockLocation>()
  let at = INDEX_MAGIC.length
  const next = () => {
    const [value, length] = varint.decode(bytes, at)
    at += length
    return value
  }
  try {
    while (at < bytes.length) {
      const cidLength = next()
      const cid = CID.decode(bytes.subarray(at, at + cidLength))
      at += cidLength
      index.set(blockKey(cid), { offset: next(), length: next() })
    }
  } catch (cause) {
    throw new PinfoldError('INTERNAL', `the block index of ${blobKey} is corrupt`, { cause })
  }
  return index
}

/** One block's bytes from a CAR blob: a single ranged read. */
export async function readBlockAt(
  blobs: BlobStore,
  blobKey: string,
  location: BlockLocation,
  options: CallOptions = {},
): Promise<Uint8Array> {
  const bytes = await readAll(await blobs.get(blobKey, { ...options, range: location }))
  if (bytes.length !== location.length) throw new PinfoldError('INTERNAL', `the CAR blob ${blobKey} is truncated`)
  return bytes
}

function varintBytes(value: number): Uint8Array {
  const out = new Uint8Array(varint.encodingLength(value))
  varint.encodeTo(value, out, 0)
  return out
}

/** Every byte of a (small) blob stream, as one array. */
export async function readAll(source: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = []
  for await (const chunk of source) chunks.push(chunk)
  return concat(chunks)
}

export function concat(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.length
  }
  return out
}

export async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes
}
