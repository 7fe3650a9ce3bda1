import { CID } from 'multiformats/cid'
import { PinfoldError, throwIfAborted } from '../errors.js'
import type { ContentRecord } from '../model.js'
import type { BlobStore, CallOptions } from '../ports.js'
import { blockKey, blockLinks, isIdentity } from './blocks.js'
import { type BlockLocation, readBlockAt, readCarIndex } from './car-blob.js'
import type { ContentDag } from './content-dag.js'

/**
 * The DAG of a `car` content (folder and CAR uploads): blocks are read from the stored CARv1
 * through its block index (`${blobKey}.idx`, see `car-blob.ts`), loaded once per instance; each
 * `getBlock` is then one ranged blob read.
 */
export function createCarDag(blobs: BlobStore, content: ContentRecord): ContentDag {
  if (content.kind !== 'car') throw new PinfoldError('INTERNAL', `content ${content.cid} is not a CAR`)
  const root = CID.parse(content.cid)
  let index: Promise<Map<string, BlockLocation>> | undefined
  const loadIndex = (options?: CallOptions) => {
    if (!index) {
      const loading = readCarIndex(blobs, content.blobKey, options)
      // a failed load (an outage) is retried by the next call instead of being remembered
      loading.catch(() => {
        if (index === loading) index = undefined
      })
      index = loading
    }
    return index
  }

  async function getBlock(cid: CID, options?: CallOptions): Promise<Uint8Array | undefined> {
    if (isIdentity(cid)) return cid.multihash.digest
    const location = (await loadIndex(options)).get(blockKey(cid))
    return location && readBlockAt(blobs, content.blobKey, location, options)
  }

  return {
    root,
    getBlock,
    async *blocks(options) {
      // Depth-first in link order; each block once. Identity blocks live in their CIDs and are not emitted.
      const seen = new Set<string>()
      const stack: CID[] = [root]
      while (stack.length > 0) {
        throwIfAborted(options?.signal)
        const cid = stack.pop()!
        if (isIdentity(cid)) continue
        const id = blockKey(cid)
        if (seen.has(id)) continue
        seen.add(id)
        const bytes = await getBlock(cid, options)
        if (!bytes) throw new PinfoldError('INTERNAL', `block ${cid} of ${content.cid} is missing from its CAR`)
        yield { cid, bytes }
        const links = blockLinks(cid, bytes)
        for (let i = links.length - 1; i >= 0; i--) stack.push(links[i]!)
      }
    },
  }
}
