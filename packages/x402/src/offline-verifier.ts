import type {
  CallOptions,
  Clock,
  PaymentPayload,
  PaymentRequirement,
  PaymentSettlement,
  PaymentVerification,
  PaymentVerifier,
} from '@pinfold/interface'
import { optionChecks, throwIfAborted } from '@pinfold/interface'
import { X402_CHAINS, type X402Chain } from './networks.js'
import { assertValidRequirement } from './requirement.js'
import { isBytes32, isEvmAddress, isSignatureHex, isUint256String, sameAddress } from './shapes.js'

/** The EIP-3009 typed data every `exact` EVM payment signs. */
export const TRANSFER_WITH_AUTHORIZATION_TYPES = {
  TransferWithAuthorization: [
    { name: 'from', type: 'address' },
    { name: 'to', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'validAfter', type: 'uint256' },
    { name: 'validBefore', type: 'uint256' },
    { name: 'nonce', type: 'bytes32' },
  ],
} as const

/** Why an offline verification refused a payment; x402's own reason codes where they exist. */
export type OfflineRefusalReason =
  | 'unsupported_scheme'
  | 'invalid_network'
  | 'invalid_payload'
  | 'invalid_exact_evm_payload_recipient_mismatch'
  | 'invalid_exact_evm_payload_authorization_value'
  | 'invalid_exact_evm_payload_authorization_valid_after'
  | 'invalid_exact_evm_payload_authorization_valid_before'
  | 'invalid_exact_evm_payload_signature'

/**
 * A successful offline "settlement": nothing moved on chain (`transaction` is empty). It only says the
 * authorization was still valid when settle ran; collecting the money needs a facilitator or a self-submitted
 * `transferWithAuthorization`.
 */
export interface OfflineSettlement extends PaymentSettlement {
  settledOnChain: false
}

/** The offline verifier's `settle` says explicitly that it settled nothing on chain. */
export interface OfflineVerifier extends PaymentVerifier {
  settle(payment: PaymentPayload, requirement: PaymentRequirement, options?: CallOptions): Promise<OfflineSettlement>
}

export interface OfflineVerifierOptions {
  /** Defaults to the system clock. Tests inject a fixed one to exercise the time window. */
  clock?: Clock
  /** Networks and tokens to accept; defaults to {@link X402_CHAINS}. */
  chains?: readonly X402Chain[]
}

/**
 * `validBefore` must leave this many seconds to settle: the reference facilitator's 3-block pad, so an
 * authorization we accept can still be submitted on chain.
 */
const SETTLE_MARGIN_SECONDS = 6n
/**
 * Slack over `maxTimeoutSeconds` for the client's clock running ahead of ours. Without an upper bound an
 * authorization could stay redeemable (and its replay key worth keeping) for years.
 */
const CLOCK_SKEW_SECONDS = 30n

/**
 * A {@link PaymentVerifier} that checks an EIP-3009 authorization without touching a chain: the terms, the
 * time window and the EIP-712 signature (viem, recover-and-compare, so EOA signers only). It proves the payer
 * signed a transfer to us; it does NOT prove the payer has the funds, that the nonce is unused on chain, or
 * that any money moved. Replay protection is the caller's job: claim {@link paymentReplayKey} atomically.
 */
export function createOfflineVerifier(options: OfflineVerifierOptions = {}): OfflineVerifier {
  const check = optionChecks('@pinfold/x402', 'createOfflineVerifier')
  // an empty list would refuse every payment, request after request, instead of failing here
  check.require('chains', options.chains === undefined || options.chains.length > 0, 'must list at least one chain')
  check.require('clock', options.clock === undefined || typeof options.clock.now === 'function', 'must have now()')
  const clock = options.clock ?? { now: () => new Date() }
  const chains = options.chains ?? X402_CHAINS

  async function verify(
    payment: PaymentPayload,
    requirement: PaymentRequirement,
    callOptions?: CallOptions,
  ): Promise<PaymentVerification> {
    throwIfAborted(callOptions?.signal)
    // A bad requirement is our misconfiguration, not the payer's fault: it throws INVALID_INPUT.
    const chain = assertValidRequirement(requirement, chains)
    const reason = await refusalReason(payment, requirement, chain, clock)
    if (reason) return { valid: false, reason }
    return { valid: true, payer: payment.authorization.from, nonce: payment.authorization.nonce }
  }

  async function settle(
    payment: PaymentPayload,
    requirement: PaymentRequirement,
    callOptions?: CallOptions,
  ): Promise<OfflineSettlement> {
    // Re-verify, as the reference facilitator does: settle must never report success for a bad payment,
    // and the authorization may have expired since verify.
    const verification = await verify(payment, requirement, callOptions)
    const payer = typeof payment.authorization?.from === 'string' ? payment.authorization.from : ''
    const base = { transaction: '', network: payment.network, payer, settledOnChain: false } as const
    return verification.valid
      ? { success: true, ...base }
      : { success: false, errorReason: verification.reason, ...base }
  }

  return { verify, settle }
}

/**
 * Checks in the reference verifier's spirit, cheapest first and the signature last. Returns undefined when the
 * payment is good. The shape checks repeat the decoder's because the port accepts any `PaymentPayload`.
 */
async function refusalReason(
  payment: PaymentPayload,
  requirement: PaymentRequirement,
  chain: X402Chain,
  clock: Clock,
): Promise<OfflineRefusalReason | undefined> {
  if (payment.scheme !== 'exact') return 'unsupported_scheme'
  const expectedNetwork = payment.x402Version === 2 ? chain.caip2 : chain.v1Name
  if (payment.network !== expectedNetwork) return 'invalid_network'

  const a = payment.authorization
  const wellFormed =
    isSignatureHex(payment.signature) &&
    isEvmAddress(a?.from) &&
    isEvmAddress(a.to) &&
    isUint256String(a.value) &&
    isUint256String(a.validAfter) &&
    isUint256String(a.validBefore) &&
    isBytes32(a.nonce)
  if (!wellFormed) return 'invalid_payload'

  if (!sameAddress(a.to, requirement.payTo)) return 'invalid_exact_evm_payload_recipient_mismatch'
  // v1 lets the payer overpay; v2 (spec §6.1.2, and every facilitator) demands the exact amount.
  const value = BigInt(a.value)
  const amount = BigInt(requirement.amount)
  if (payment.x402Version === 2 ? value !== amount : value < amount) {
    return 'invalid_exact_evm_payload_authorization_value'
  }

  const now = BigInt(Math.floor(clock.now().getTime() / 1000))
  if (BigInt(a.validAfter) > now) return 'invalid_exact_evm_payload_authorization_valid_after'
  const validBefore = BigInt(a.validBefore)
  if (validBefore < now + SETTLE_MARGIN_SECONDS) return 'invalid_exact_evm_payload_authorization_valid_before'
  if (validBefore > now + BigInt(requirement.maxTimeoutSeconds) + CLOCK_SKEW_SECONDS) {
    return 'invalid_exact_evm_payload_authorization_valid_before'
  }

  // The domain comes from our requirement, never the payment: a signature over any other token, chain or
  // domain name simply fails to recover to `from`.
  // viem loads on the first payment, not with the server (see shapes.ts)
  const { verifyTypedData } = await import('viem')
  const signed = await verifyTypedData({
    address: a.from,
    domain: {
      name: requirement.extra.name,
      version: requirement.extra.version,
      chainId: chain.chainId,
      verifyingContract: requirement.asset,
    },
    types: TRANSFER_WITH_AUTHORIZATION_TYPES,
    primaryType: 'TransferWithAuthorization',
    message: {
      from: a.from,
      to: a.to,
      value,
      validAfter: BigInt(a.validAfter),
      validBefore,
      nonce: a.nonce,
    },
    signature: payment.signature,
  }).catch(() => false)
  return signed ? undefined : 'invalid_exact_evm_payload_signature'
}

/**
 * The key core must claim atomically, once per payment, before serving: an EIP-3009 nonce is single-use per
 * payer on chain, and lowercasing makes differently-cased copies of one authorization collide.
 */
export function paymentReplayKey(payment: PaymentPayload): { payer: string; nonce: string } {
  return { payer: payment.authorization.from.toLowerCase(), nonce: payment.authorization.nonce.toLowerCase() }
}
