import type { Actor, Network, SignatureRecord } from '@pinfold/interface'
import { invalid, notFound } from '@pinfold/interface'
import type { ServiceContext } from './context.js'
import { heldCids } from './held-cids.js'

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

export function createSignatureOperations(ctx: ServiceContext) {
  const held = heldCids(ctx)

  return {
    /** Verifies the signature over `(address, cid, date)` with viem, then stores it (once per CID). */
    async add(actor: Actor, network: Network, cidText: string, body: { signature: unknown; address: unknown }) {
      const { signature, address } = body
      // viem (~30 MB resident) loads with the first signature rather than with every server
      const { isAddress, isHex, verifyTypedData } = await import('viem')
      if (typeof address !== 'string' || !isAddress(address, { strict: false })) {
        throw invalid('address must be an Ethereum address')
      }
      if (typeof signature !== 'string' || !isHex(signature) || signature.length < 132) {
        throw invalid('signature must be a 0x-prefixed EIP-712 signature')
      }
      const file = await held.require(actor.tenantId, network, cidText, 'CID')
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
      return ctx.records.addSignature(record)
    },

    async get(actor: Actor, network: Network, cidText: string): Promise<SignatureRecord> {
      const spelling = await held.spelling(actor.tenantId, network, cidText)
      const found = await ctx.records.getSignature(actor.tenantId, network, spelling)
      if (!found) throw notFound('signature')
      return found
    },

    async remove(actor: Actor, network: Network, cidText: string): Promise<void> {
      const spelling = await held.spelling(actor.tenantId, network, cidText)
      if (!(await ctx.records.deleteSignature(actor.tenantId, network, spelling))) throw notFound('signature')
    },
  }
}
