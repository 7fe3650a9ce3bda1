import { blockLength, headerLength } from '@ipld/car/buffer-writer'
import type { BlobStore, BlockLocation, CallOptions } from '@pinfold/interface'
import { CID } from 'multiformats/cid'
import { identity } from 'multiformats/hashes/identity'
import { pushable } from '../../streams/pushable.js'
import { type Block, blockKey, isIdentity } from './blocks.js'
import { carBytes } from './car-bytes.js'

/**
 * Stored CARs (content kind `car`): folder imports and CAR uploads keep every block of their DAG
 * in one CARv1 blob, and each block's place in it goes to the block index (`BlockLocation`s with
 * source `blob`).
 *
 * When the root is unknown until the DAG is built (folder imports), the header carries
 * {@link PLACEHOLDER_ROOT} and the content record holds the real root: CARv1 roots are
 * informational for Pinfold, which always reads a DAG from its record's CID.
 */
export const PLACEHOLDER_ROOT = CID.createV1(0x55, identity.digest(new Uint8Array(0)))

/** The sidecar of a file content's blob: its DAG inner nodes (`file-dag-index.ts`). */
export const indexKeyOf = (blobKey: string) => `${blobKey}.idx`

export interface WrittenCar {
  /** Bytes of the CAR blob. */
  size: number
  /** Sum of the distinct blocks' sizes: the DAG's size. */
  dagSize: number
  /** Where each distinct block lies in the blob, in CAR order (`isRoot` is left false: the caller knows the root). */
  locations: BlockLocation[]
}

export interface CarBlobWriter {
  /**
   * Appends a block unless one with the same multihash was written already; identity blocks are
   * skipped. Safe to call concurrently (the importer does): a block's place is fixed when `put`
   * is called, in call order, and sections are written in that same order.
   */
  put(cid: CID, bytes: Uint8Array): Promise<void>
  /** Completes the CAR blob. */
  close(): Promise<WrittenCar>
  /** Stops writing; nothing is left under the CAR's key once the returned promise settles. */
  abort(error: unknown): Promise<void>
}

/** Streams a CARv1 into `blobs` under `key` as blocks arrive (bounded memory apart from the locations). */
export function createCarBlobWriter(
  blobs: BlobStore,
  key: string,
  root: CID,
  options: CallOptions = {},
): CarBlobWriter {
  const channel = pushable<Block>()
  const stored = blobs.put(key, carBytes(root, channel.iterable), options)
  // the rejection is observed by put/close/abort; this keeps it from being reported as unhandled meanwhile
  stored.catch(() => {})
  const written = new Set<string>()
  const locations: BlockLocation[] = []
  let position = headerLength({ roots: [root] })
  let dagSize = 0

  return {
    async put(cid, bytes) {
      if (isIdentity(cid)) return
      const id = blockKey(cid)
      if (written.has(id)) return
      written.add(id)
      // Synchronous up to the push: concurrent callers get consecutive places in call order.
      const section = blockLength({ cid, bytes })
      locations.push({
        multihash: cid.multihash.bytes,
        codec: cid.code,
        source: 'blob',
        offset: position + section - bytes.length,
        length: bytes.length,
        isRoot: false,
      })
      position += section
      dagSize += bytes.length
      try {
        await channel.push({ cid, bytes })
      } catch (error) {
        await stored // the blob store's own failure explains why it stopped reading
        throw error
      }
    },
    async close() {
      channel.end()
      const { size } = await stored
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
export async function deleteContentBlobs(blobs: BlobStore, key: string, options?: CallOptions): Promise<void> {
  await Promise.all([
    blobs.delete(key, options).catch(() => {}),
    blobs.delete(indexKeyOf(key), options).catch(() => {}),
  ])
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
