import type { CallOptions, FileRecord, Network } from '@pinfold/interface'
import { notFound } from '@pinfold/interface'
import type { ServiceContext } from '../service/context.js'
import { parseCid } from './parse-cid.js'

/** What finding a held CID uses of the service. */
export type HeldCidSettings = Pick<ServiceContext, 'records' | 'clock'>

/**
 * How a CID in a request finds a tenant's records: by its multihash, so any spelling of it (CIDv0
 * or v1, any multibase) reaches the file the tenant stored, and records kept under that file's CID
 * (swaps, signatures) are found under that one spelling.
 */
export function heldCids(ctx: HeldCidSettings) {
  /** The tenant's oldest unexpired file on `network` with this CID, whatever its spelling. */
  const find = (
    tenantId: string,
    network: Network,
    cidText: string,
    options?: CallOptions,
  ): Promise<FileRecord | undefined> =>
    ctx.records.blocks.findHeldFile(tenantId, network, parseCid(cidText).multihash.bytes, ctx.clock.now(), options)

  return {
    find,
    /** {@link find}, or `NOT_FOUND` naming `what`. */
    async require(
      tenantId: string,
      network: Network,
      cidText: string,
      what: string,
      options?: CallOptions,
    ): Promise<FileRecord> {
      const file = await find(tenantId, network, cidText, options)
      if (!file) throw notFound(what)
      return file
    },
    /** The spelling records of this CID are kept under: the held file's CID, else the request's own. */
    async spelling(tenantId: string, network: Network, cidText: string, options?: CallOptions): Promise<string> {
      return (await find(tenantId, network, cidText, options))?.cid ?? parseCid(cidText).toString()
    },
  }
}
