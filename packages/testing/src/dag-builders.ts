import * as dagPb from '@ipld/dag-pb'
import type { UnixFS } from 'ipfs-unixfs'
import { CID } from 'multiformats/cid'
import * as raw from 'multiformats/codecs/raw'
import { sha256 } from 'multiformats/hashes/sha2'

/**
 * Hand-built blocks for DAGs no importer would make: repeated links, sizes that lie, nodes that
 * are not UnixFS. Adversarial tests upload them as CARs (`carBytes` in `uploads.ts`).
 */
export interface Block {
  cid: CID
  bytes: Uint8Array
}

export async function rawBlock(bytes: Uint8Array): Promise<Block> {
  return { cid: CID.createV1(raw.code, await sha256.digest(bytes)), bytes }
}

/** A dag-pb block; `data` is a UnixFS node or arbitrary bytes (to make malformed nodes). */
export async function pbBlock(data: UnixFS | Uint8Array | undefined, links: dagPb.PBLink[]): Promise<Block> {
  const Data = data === undefined || data instanceof Uint8Array ? data : data.marshal()
  const bytes = dagPb.encode(dagPb.prepare({ Data, Links: links }))
  return { cid: CID.createV1(dagPb.code, await sha256.digest(bytes)), bytes }
}

/** The 2-character bucket name a HAMT shard of fanout 256 gives its link at `index`. */
export const bucket = (index: number) => index.toString(16).toUpperCase().padStart(2, '0')

/** A multipart body uploading `car` as a public CAR (its root becomes the file's CID). */
export function publicCarForm(car: Uint8Array): FormData {
  const body = new FormData()
  body.append('file', new Blob([car]), 'dag.car')
  body.append('network', 'public')
  body.append('car', 'true')
  return body
}
