import { createHash } from 'node:crypto'
import * as dagCbor from '@ipld/dag-cbor'
import * as dagJson from '@ipld/dag-json'
import * as dagPb from '@ipld/dag-pb'
import { invalid } from '@pinfold/interface'
import { CID } from 'multiformats/cid'
import { sha256, sha512 } from 'multiformats/hashes/sha2'

/** A block: bytes and the CID they hash to. */
export interface Block {
  cid: CID
  bytes: Uint8Array
}

export const RAW_CODE = 0x55
export const DAG_PB_CODE = 0x70
export const DAG_CBOR_CODE = 0x71
export const DAG_JSON_CODE = 0x0129
/** Plain JSON and CBOR: data blocks whose links, if any, are not IPLD links (no CID is followed). */
export const JSON_CODE = 0x0200
export const CBOR_CODE = 0x51
export const IDENTITY_CODE = 0x00

/** Largest block accepted in an uploaded CAR (the bitswap / trustless-gateway limit). */
export const MAX_BLOCK_BYTES = 2 * 1024 * 1024

const CODECS = new Set([RAW_CODE, DAG_PB_CODE, DAG_CBOR_CODE, DAG_JSON_CODE, JSON_CODE, CBOR_CODE])

/**
 * Why blocks of this CID cannot be verified and kept (a codec other than raw, dag-pb, dag-cbor,
 * dag-json, json and cbor,
 * a hash other than identity, sha2-256 and sha2-512), or `undefined` when they can.
 */
export async function unkeepable(cid: CID): Promise<string | undefined> {
  if (!CODECS.has(cid.code))
    return `uses codec 0x${cid.code.toString(16)}; only raw, dag-pb, dag-cbor, dag-json, json and cbor blocks can be kept`
  if (!(await digestOf(cid.multihash.code, new Uint8Array(0)))) {
    return `uses hash 0x${cid.multihash.code.toString(16)}; only sha2-256 and sha2-512 blocks can be kept`
  }
  return undefined
}

/** A block whose bytes are its CID's digest: never stored, always "present". */
export const isIdentity = (cid: CID) => cid.multihash.code === IDENTITY_CODE

/** Map key for a block: its multihash, so a CIDv0 and a CIDv1 of the same bytes meet. */
export const blockKey = (cid: CID) => multihashKey(cid.multihash.bytes)

/** {@link blockKey} of a binary multihash. */
export const multihashKey = (multihash: Uint8Array) => Buffer.from(multihash).toString('base64')

/**
 * Checks that `bytes` hash to `cid` (the CAR readers do not) and that the codec is one the service
 * can walk; throws `INVALID_INPUT` naming the block otherwise.
 */
export async function verifyBlock(cid: CID, bytes: Uint8Array): Promise<void> {
  if (!CODECS.has(cid.code)) throw invalid(`block ${cid} uses unsupported codec 0x${cid.code.toString(16)}`)
  if (bytes.length > MAX_BLOCK_BYTES) throw invalid(`block ${cid} is larger than ${MAX_BLOCK_BYTES} bytes`)
  const { code, digest } = cid.multihash
  const actual = await digestOf(code, bytes)
  if (!actual) throw invalid(`block ${cid} uses unsupported hash 0x${code.toString(16)}`)
  if (!Buffer.from(actual).equals(digest)) throw invalid(`hash mismatch for block ${cid}`)
}

/**
 * The digest `bytes` have under the multihash function `code` (identity, sha2-256 through
 * node:crypto, sha2-512), or `undefined` for a hash Pinfold does not support.
 */
export async function digestOf(code: number, bytes: Uint8Array): Promise<Uint8Array | undefined> {
  if (code === IDENTITY_CODE) return bytes
  if (code === sha256.code) return createHash('sha256').update(bytes).digest()
  if (code === sha512.code) return (await sha512.digest(bytes)).digest
  return undefined
}

/** The CIDs a block links to, in link order; malformed blocks are `INVALID_INPUT`. */
export function blockLinks(cid: CID, bytes: Uint8Array): CID[] {
  try {
    switch (cid.code) {
      case RAW_CODE:
        return []
      case JSON_CODE:
        JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes))
        return []
      case CBOR_CODE:
        // plain CBOR: tag 42 means nothing here, but the block must still be one well-formed value
        dagCbor.decode(bytes)
        return []
      case DAG_PB_CODE:
        return dagPb.decode(bytes).Links.map((link) => link.Hash)
      case DAG_CBOR_CODE: {
        const links: CID[] = []
        collectCids(dagCbor.decode(bytes), links)
        return links
      }
      case DAG_JSON_CODE: {
        const links: CID[] = []
        collectCids(dagJson.decode(bytes), links)
        return links
      }
      default:
        throw invalid(`block ${cid} uses unsupported codec 0x${cid.code.toString(16)}`)
    }
  } catch (error) {
    if ((error as { code?: unknown }).code === 'INVALID_INPUT') throw error
    throw invalid(`block ${cid} is malformed`, error)
  }
}

/** A block that links to nothing: a raw block, or a dag-pb node without links (a UnixFS leaf). */
export function isLeafBlock(cid: CID, bytes: Uint8Array): boolean {
  if (cid.code === RAW_CODE) return true
  if (cid.code !== DAG_PB_CODE) return false
  try {
    return dagPb.decode(bytes).Links.length === 0
  } catch {
    return false
  }
}

function collectCids(value: unknown, into: CID[]): void {
  const cid = CID.asCID(value)
  if (cid) {
    into.push(cid)
    return
  }
  if (Array.isArray(value)) for (const item of value) collectCids(item, into)
  else if (value !== null && typeof value === 'object' && !(value instanceof Uint8Array)) {
    for (const item of Object.values(value)) collectCids(item, into)
  }
}
