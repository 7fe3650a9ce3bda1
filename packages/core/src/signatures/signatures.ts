import type { SignatureRecord } from '@pinfold/interface'
import { invalid, notFound } from '@pinfold/interface'
import { heldCids } from '../common/held-cids.js'
import { tenantEvent } from '../events/new-event.js'
import type { ServiceContext } from '../service/context.js'
import type { SignatureOperations } from './api.js'

/** What the signature operations use of the service. */
export type SignatureSettings = Pick<ServiceContext, 'records' | 'clock'>

/**
 * The EIP-712 typed data a CID signature covers — Pinata's "Signature Standard"
 * (docs.pinata.cloud/files/signatures): `date` is when the tenant first stored the CID on that
 * network, as an ISO 8601 string with milliseconds (`created_at` of its oldest file record).
 */
export const CID_SIGNATURE_DOMAIN = { name: 'Sign Content', version: '1.0.0', chainId: 1 } as const
export const CID_SIGNATURE_TYPES = {
  Sign: [
    { name: 'address', type: 'address' },
    { name: 'cid', type: 'string' },
    { name: 'date', type: 'string' },
  ],
} as const

export function createSignatureOperations(ctx: SignatureSettings): SignatureOperations {
  const held = heldCids(ctx)

  return {
    async add(actor, network, cidText, input, options) {
      const { signature, address } = input
      // viem (~30 MB resident) loads with the first signature rather than with every server
      const { isAddress, isHex, verifyTypedData } = await import('viem')
      if (typeof address !== 'string' || !isAddress(address, { strict: false })) {
        throw invalid('address must be an Ethereum address')
      }
      if (typeof signature !== 'string' || !isHex(signature) || signature.length < 132) {
        throw invalid('signature must be a 0x-prefixed EIP-712 signature')
      }
      const file = await held.require(actor.tenantId, network, cidText, 'CID', options)
      let valid = false
      try {
        valid = await verifyTypedData({
          address,
          domain: CID_SIGNATURE_DOMAIN,
          types: CID_SIGNATURE_TYPES,
          primaryType: 'Sign',
          message: { address, cid: file.cid, date: file.createdAt.toISOString() },
          signature,
        })
      } catch {
        valid = false
      }
      if (!valid) throw invalid('signature does not verify for this address and CID')
      const record: SignatureRecord = {
        tenantId: actor.tenantId,
        network,
        cid: file.cid,
        signature,
        address,
        createdAt: ctx.clock.now(),
      }
      const event = tenantEvent(actor, {
        type: 'signature.added',
        target: { kind: 'signature', id: file.cid },
        data: { cid: file.cid, address, network },
      })
      return ctx.records.gateway.addSignature(record, { ...options, events: [event] })
    },

    async get(actor, network, cidText, options) {
      const spelling = await held.spelling(actor.tenantId, network, cidText, options)
      const found = await ctx.records.gateway.getSignature(actor.tenantId, network, spelling, options)
      if (!found) throw notFound('signature')
      return found
    },

    async remove(actor, network, cidText, options) {
      const spelling = await held.spelling(actor.tenantId, network, cidText, options)
      const event = tenantEvent(actor, {
        type: 'signature.removed',
        target: { kind: 'signature', id: spelling },
        data: { cid: spelling, network },
      })
      if (
        !(await ctx.records.gateway.deleteSignature(actor.tenantId, network, spelling, { ...options, events: [event] }))
      ) {
        throw notFound('signature')
      }
    },
  }
}
