import type { CallOptions } from '../call-options.js'

/** What the server asks to be paid, in x402 terms (one entry of `accepts`). */
export interface PaymentRequirement {
  scheme: 'exact'
  /** x402 v1 network name, e.g. `base-sepolia`. */
  network: string
  /** ERC-20 token contract (USDC). */
  asset: `0x${string}`
  payTo: `0x${string}`
  /** Price in the token's atomic units, as a decimal string. */
  amount: string
  /** Absolute URL of the thing being paid for. */
  resource: string
  description: string
  mimeType: string
  maxTimeoutSeconds: number
  /** The token's EIP-712 domain name and version. */
  extra: { name: string; version: string }
}

/** An EIP-3009 `transferWithAuthorization`, as carried by both x402 versions. */
export interface PaymentAuthorization {
  from: `0x${string}`
  to: `0x${string}`
  value: string
  validAfter: string
  validBefore: string
  nonce: `0x${string}`
}

/** A decoded payment, normalised across x402 v1 (`X-PAYMENT`) and v2 (`PAYMENT-SIGNATURE`). */
export interface PaymentPayload {
  x402Version: 1 | 2
  scheme: string
  network: string
  signature: `0x${string}`
  authorization: PaymentAuthorization
}

export type PaymentVerification =
  | { valid: true; payer: `0x${string}`; nonce: `0x${string}` }
  | { valid: false; reason: string }

export interface PaymentSettlement {
  success: boolean
  /** Transaction hash; empty when the payment was only verified offline or failed. */
  transaction: string
  network: string
  payer: string
  errorReason?: string | undefined
}

/**
 * Checks a payment against a requirement. `verify` is side-effect free; replay protection is core's
 * job (it claims `(payer, nonce)` in the record store). `settle` moves the money where the verifier
 * can (a facilitator); an offline verifier settles nothing and says so in its result. A facilitator
 * that cannot be reached rejects with `UNAVAILABLE`.
 */
export interface PaymentVerifier {
  verify(payment: PaymentPayload, requirement: PaymentRequirement, options?: CallOptions): Promise<PaymentVerification>
  settle(payment: PaymentPayload, requirement: PaymentRequirement, options?: CallOptions): Promise<PaymentSettlement>
}
