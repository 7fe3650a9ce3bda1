import type { PaymentAuthorization, PaymentPayload, PaymentRequirement } from '@pinfold/interface'
import { PinfoldError } from '@pinfold/interface'
import { X402_CHAINS, type X402Chain } from './networks.js'
import { isBytes32, isEvmAddress, isRecord, isSignatureHex, isUint256String } from './shapes.js'
import { toV2Requirements, type V2PaymentRequirements, X402_HEADERS } from './wire.js'

/**
 * Longest payment header accepted, in characters. A v2 header for our route is about 1.5 KB; the cap leaves
 * room for smart-wallet signatures while refusing to base64-decode and parse arbitrarily large input.
 * Node's own limit for all headers together is 16 KiB.
 */
export const MAX_PAYMENT_HEADER_LENGTH = 8 * 1024

/** Reason carried in `details.reason` when a v2 payment's `accepted` is not what we offered. */
export const ACCEPTED_MISMATCH_REASON = 'invalid_payment_requirements'

const BASE64 = /^(?:[A-Za-z0-9+/]+|[A-Za-z0-9_-]+)={0,2}$/

/** Anything with a case-insensitive `get`, such as a fetch `Headers`. */
export interface HeaderReader {
  get(name: string): string | null | undefined
}

/**
 * Reads the retry's payment from request headers: `PAYMENT-SIGNATURE` (v2) first, then `X-PAYMENT` (v1).
 * Returns `undefined` when there is neither, so the caller answers 402.
 * @throws PinfoldError `INVALID_INPUT` for a malformed header, `PAYMENT_REQUIRED` for a v2 payment for other terms.
 */
export function readPaymentFromHeaders(
  headers: HeaderReader,
  offered: PaymentRequirement,
  chains: readonly X402Chain[] = X402_CHAINS,
): PaymentPayload | undefined {
  const value = headers.get(X402_HEADERS.paymentSignature) ?? headers.get(X402_HEADERS.xPayment)
  return value == null ? undefined : decodePaymentHeader(value, offered, chains)
}

/**
 * Decodes an `X-PAYMENT` or `PAYMENT-SIGNATURE` value (base64 JSON) into the normalised payment. The version
 * comes from the payload's own `x402Version`, since @x402/fetch may send either version.
 *
 * A v2 payment names the requirement it pays for in `accepted`; it must match `offered` exactly (the extra
 * object may add fields), as the reference server demands. Normalisation drops `accepted`, so this is the only
 * place that check can happen: a mismatch throws `PAYMENT_REQUIRED` with `details.reason`.
 * Everything else (scheme, network, amounts, time, signature) is the verifier's job.
 */
export function decodePaymentHeader(
  value: string,
  offered: PaymentRequirement,
  chains: readonly X402Chain[] = X402_CHAINS,
): PaymentPayload {
  const decoded = decodeBase64Json(value)
  if (!isRecord(decoded)) throw invalidPayment('the payment must be a JSON object')
  if (decoded.x402Version === 1) return decodeV1(decoded)
  if (decoded.x402Version === 2) return decodeV2(decoded, offered, chains)
  throw invalidPayment('x402Version must be 1 or 2')
}

function decodeV1(decoded: Record<string, unknown>): PaymentPayload {
  const { scheme, network, payload } = decoded
  if (typeof scheme !== 'string') throw invalidPayment('scheme must be a string')
  if (typeof network !== 'string') throw invalidPayment('network must be a string')
  return { x402Version: 1, scheme, network, ...decodeExactEvmPayload(payload) }
}

function decodeV2(
  decoded: Record<string, unknown>,
  offered: PaymentRequirement,
  chains: readonly X402Chain[],
): PaymentPayload {
  const { accepted, payload } = decoded
  if (!isRecord(accepted)) throw invalidPayment('accepted must be the requirement object being paid for')
  const exact = decodeExactEvmPayload(payload)
  if (!acceptsOffered(accepted, toV2Requirements(offered, chains))) {
    throw new PinfoldError('PAYMENT_REQUIRED', 'the payment accepts different terms than the ones offered', {
      details: { reason: ACCEPTED_MISMATCH_REASON },
    })
  }
  return { x402Version: 2, scheme: String(accepted.scheme), network: String(accepted.network), ...exact }
}

/** Same rule as @x402/core's `paymentRequirementsMatchAccepted`: equal fields, and `extra` may only add keys. */
function acceptsOffered(accepted: Record<string, unknown>, offered: V2PaymentRequirements): boolean {
  const { extra: acceptedExtra, ...acceptedCore } = accepted
  const { extra: offeredExtra, ...offeredCore } = offered
  const entries = Object.entries(offeredCore)
  if (Object.keys(acceptedCore).length !== entries.length || !entries.every(([k, v]) => acceptedCore[k] === v)) {
    return false
  }
  return isRecord(acceptedExtra) && Object.entries(offeredExtra).every(([k, v]) => acceptedExtra[k] === v)
}

function decodeExactEvmPayload(payload: unknown): { signature: `0x${string}`; authorization: PaymentAuthorization } {
  if (!isRecord(payload)) throw invalidPayment('payload must be an object')
  const { signature, authorization: a } = payload
  if (!isSignatureHex(signature)) throw invalidPayment('payload.signature must be 0x-prefixed hex')
  if (!isRecord(a)) throw invalidPayment('payload.authorization must be an object')
  if (!isEvmAddress(a.from)) throw invalidPayment('authorization.from must be an address')
  if (!isEvmAddress(a.to)) throw invalidPayment('authorization.to must be an address')
  for (const field of ['value', 'validAfter', 'validBefore'] as const) {
    if (!isUint256String(a[field])) throw invalidPayment(`authorization.${field} must be a uint256 decimal string`)
  }
  if (!isBytes32(a.nonce)) throw invalidPayment('authorization.nonce must be 32 bytes of 0x-prefixed hex')
  const authorization: PaymentAuthorization = {
    from: a.from,
    to: a.to,
    value: a.value as string,
    validAfter: a.validAfter as string,
    validBefore: a.validBefore as string,
    nonce: a.nonce,
  }
  return { signature, authorization }
}

function decodeBase64Json(value: string): unknown {
  if (typeof value !== 'string' || value.length === 0) throw invalidPayment('the payment header is empty')
  if (value.length > MAX_PAYMENT_HEADER_LENGTH) {
    throw invalidPayment(`the payment header is longer than ${MAX_PAYMENT_HEADER_LENGTH} characters`)
  }
  const trimmed = value.trim()
  // Buffer skips characters outside the alphabet instead of failing, so check the alphabet first.
  if (!BASE64.test(trimmed)) throw invalidPayment('the payment header is not base64')
  try {
    return JSON.parse(Buffer.from(trimmed, 'base64').toString('utf8'))
  } catch (cause) {
    throw new PinfoldError('INVALID_INPUT', 'x402 payment: the payment header is not base64-encoded JSON', { cause })
  }
}

function invalidPayment(message: string): PinfoldError {
  return new PinfoldError('INVALID_INPUT', `x402 payment: ${message}`)
}
