/** `FileService.signatures`: the contract (its operations are in `signatures.ts`). */

import type { Actor, CallOptions, Network, SignatureRecord } from '@pinfold/interface'

export interface SignatureInput {
  /** A 0x-prefixed EIP-712 signature. */
  signature: string
  /** The Ethereum address that signed. */
  address: string
}

export interface SignatureOperations {
  /**
   * Verifies an EIP-712 signature over `(address, cid, date)` — `date` being when the tenant first
   * stored the CID on `network` (`CID_SIGNATURE_DOMAIN`, `CID_SIGNATURE_TYPES`) — and stores it, once
   * per CID. `INVALID_INPUT`: a bad address or signature, or one that does not verify. `NOT_FOUND`:
   * the tenant holds no file with this CID. `CONFLICT`: the CID is signed already.
   */
  add(
    actor: Actor,
    network: Network,
    cid: string,
    input: SignatureInput,
    options?: CallOptions,
  ): Promise<SignatureRecord>

  /** The signature stored for `cid`. `NOT_FOUND`. */
  get(actor: Actor, network: Network, cid: string, options?: CallOptions): Promise<SignatureRecord>

  /** Removes the signature of `cid`. `NOT_FOUND`. */
  remove(actor: Actor, network: Network, cid: string, options?: CallOptions): Promise<void>
}
