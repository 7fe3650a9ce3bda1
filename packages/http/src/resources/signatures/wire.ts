import type { SignatureRecord } from '@pinfold/core'
import Type, { type Static } from 'typebox'
import { Hex, named } from '../../schema.js'

export const SignatureObject = named('Signature', Type.Object({ cid: Type.String(), signature: Hex }))

export const SignatureInput = named(
  'SignatureInput',
  Type.Object({
    signature: Type.String({ description: 'A 0x-prefixed EIP-712 signature of `{address, cid, date}`' }),
    address: Type.String({ description: 'The 0x address that signed' }),
  }),
)

export function signatureToWire(signature: SignatureRecord): Static<typeof SignatureObject> {
  return { cid: signature.cid, signature: signature.signature }
}

/** The legacy body: `pinata-web3` sends only `signature`; `address` is needed to verify it. */
export const LegacySignatureInput = named(
  'LegacySignatureInput',
  Type.Object({
    signature: Type.String({ description: 'A 0x-prefixed EIP-712 signature of `{address, cid, date}`' }),
    address: Type.Optional(Type.String({ description: 'The 0x address that signed: required to verify' })),
  }),
)
