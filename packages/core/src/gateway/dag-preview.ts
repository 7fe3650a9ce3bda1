import * as dagCbor from '@ipld/dag-cbor'
import * as dagJson from '@ipld/dag-json'
import type { CID } from 'multiformats/cid'
import { CBOR_CODE, DAG_CBOR_CODE, DAG_JSON_CODE, JSON_CODE } from '../content/dag/blocks.js'

/**
 * A dag-json, dag-cbor, json or cbor block as indented JSON text (links as `{"/": "cid"}`, bytes as
 * `{"/": {"bytes": …}}`, dag-json's own spelling), for the gateway's HTML preview; `undefined` when
 * the block is of another codec or does not decode.
 */
export function dagPreviewText(cid: CID, bytes: Uint8Array): string | undefined {
  try {
    switch (cid.code) {
      case DAG_JSON_CODE:
      case JSON_CODE:
        return indent(new TextDecoder('utf-8', { fatal: true }).decode(bytes))
      case DAG_CBOR_CODE:
      case CBOR_CODE:
        return indent(dagJson.stringify(dagCbor.decode(bytes)))
      default:
        return undefined
    }
  } catch {
    return undefined
  }
}

const indent = (text: string) => JSON.stringify(JSON.parse(text), null, 2)
