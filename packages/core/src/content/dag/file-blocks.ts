import * as dagPb from '@ipld/dag-pb'
import type { BlockLocation } from '@pinfold/interface'
import { PinfoldError } from '@pinfold/interface'
import { UnixFS } from 'ipfs-unixfs'
import type { CID } from 'multiformats/cid'
import { blockKey, RAW_CODE } from './blocks.js'
import { type SidecarNode, sidecarLocations } from './file-dag-index.js'

/**
 * Every block of a `file` content, located: the inner nodes in the sidecar, each distinct leaf
 * as the slice of the file that the inner nodes' `blockSizes` put it at (a raw leaf is that
 * slice; a CIDv0 leaf is a UnixFS node around it). A file of one block is its own root leaf.
 */
export function fileBlockLocations(root: CID, inner: readonly SidecarNode[], fileSize: number): BlockLocation[] {
  if (inner.length === 0) return [leafLocation(root, 0, fileSize, true)]
  const nodes = new Map(inner.map((node) => [blockKey(node.cid), node]))
  const rootNode = nodes.get(blockKey(root))
  if (!rootNode) throw new PinfoldError('INTERNAL', `the inner nodes of ${root} lack their root`)
  const locations = sidecarLocations(root, [...nodes.values()])
  const leaves = new Set<string>()
  let offset = 0
  // Depth-first in link order, so leaves come in file order; the DAG is our own import's (bounded).
  const walk = (bytes: Uint8Array) => {
    const node = dagPb.decode(bytes)
    const sizes = node.Data ? UnixFS.unmarshal(node.Data).blockSizes.map(Number) : []
    if (sizes.length !== node.Links.length) throw new PinfoldError('INTERNAL', 'malformed UnixFS file node')
    node.Links.forEach(({ Hash: child }, i) => {
      const innerChild = nodes.get(blockKey(child))
      if (innerChild) {
        walk(innerChild.bytes)
        return
      }
      if (!leaves.has(blockKey(child))) {
        leaves.add(blockKey(child))
        locations.push(leafLocation(child, offset, sizes[i]!, false))
      }
      offset += sizes[i]!
    })
  }
  walk(rootNode.bytes)
  if (offset !== fileSize) throw new PinfoldError('INTERNAL', `the DAG of ${root} does not span its ${fileSize} bytes`)
  return locations
}

function leafLocation(cid: CID, offset: number, length: number, isRoot: boolean): BlockLocation {
  return {
    multihash: cid.multihash.bytes,
    codec: cid.code,
    source: cid.code === RAW_CODE ? 'blob' : 'unixfs-leaf',
    offset,
    length,
    isRoot,
  }
}
