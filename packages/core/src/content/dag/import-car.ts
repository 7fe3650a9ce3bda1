import { createDecoder } from '@ipld/car/decoder'
import type { BlobStore, CallOptions } from '@pinfold/interface'
import { invalid, isPinfoldError, throwIfAborted } from '@pinfold/interface'
import type { CID } from 'multiformats/cid'
import { blockKey, blockLinks, isIdentity, verifyBlock } from './blocks.js'
import { boundedCarReader } from './bounded-car-reader.js'
import { createCarBlobWriter, type WrittenCar } from './car-blob.js'

export interface ImportedCar extends WrittenCar {
  root: CID
}

/**
 * Streams an uploaded CAR (v1, or v2 whose inner CARv1 is kept) into a fresh CARv1 blob under
 * `key`, validating as it goes: exactly one root; every block re-hashed against its CID (the
 * readers do not verify); only raw, dag-pb, dag-cbor, dag-json, json and cbor blocks of at most 2 MiB;
 * and, at the end, the root present and every block reachable from it present. A header or section
 * declaring more than its limit is refused before its bytes are read (see `boundedCarReader`). Any
 * failure is `INVALID_INPUT`
 * (unless the source or the store failed) and leaves nothing under `key` or its index.
 */
export async function importCar(
  blobs: BlobStore,
  key: string,
  source: AsyncIterable<Uint8Array>,
  options: CallOptions = {},
): Promise<ImportedCar> {
  const reader = boundedCarReader(source)
  const decoder = createDecoder(reader)
  let roots: CID[]
  try {
    roots = (await decoder.header()).roots
  } catch (error) {
    throw isPinfoldError(error) ? error : invalid('the upload is not a valid CAR file', error)
  }
  reader.headerRead()
  if (roots.length !== 1) throw invalid(`a CAR upload must name exactly one root, not ${roots.length}`)
  const root = roots[0]!
  const writer = createCarBlobWriter(blobs, key, root, options)
  try {
    // links seen but whose block has not arrived yet; a CAR may list a block before or after its parent
    const missing = new Map<string, CID>()
    const seen = new Set<string>()
    try {
      for await (const { cid, bytes } of decoder.blocks()) {
        throwIfAborted(options.signal)
        await verifyBlock(cid, bytes)
        const id = blockKey(cid)
        if (seen.has(id)) continue
        seen.add(id)
        missing.delete(id)
        for (const link of blockLinks(cid, bytes)) {
          const linkId = blockKey(link)
          if (!isIdentity(link) && !seen.has(linkId)) missing.set(linkId, link)
        }
        await writer.put(cid, bytes)
      }
    } catch (error) {
      throw isPinfoldError(error) ? error : invalid('the upload is not a valid CAR file', error)
    }
    if (!isIdentity(root) && !seen.has(blockKey(root))) throw invalid(`the CAR's root block ${root} is missing`)
    // every block present must be complete below it, and the root's DAG must be complete
    const firstMissing = missing.values().next()
    if (!firstMissing.done) throw invalid(`block ${firstMissing.value} is linked but missing from the CAR`)
    return { ...(await writer.close()), root }
  } catch (error) {
    await writer.abort(error)
    throw error
  }
}
