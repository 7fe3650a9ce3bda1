import type { PaymentRequirement, PaymentSettlement } from '@pinfold/interface'
import { X402_CHAINS, type X402Chain } from './networks.js'
import { assertValidRequirement } from './requirement.js'

/** Header names of both x402 versions. HTTP header names are case-insensitive; these are the spec's spelling. */
export const X402_HEADERS = {
  /** v2: base64 JSON requirements on the 402 response. */
  paymentRequired: 'PAYMENT-REQUIRED',
  /** v2: the client's signed payment on the retry. */
  paymentSignature: 'PAYMENT-SIGNATURE',
  /** v1: the client's signed payment on the retry. */
  xPayment: 'X-PAYMENT',
  /** v2: base64 JSON settlement on the paid response. */
  paymentResponse: 'PAYMENT-RESPONSE',
  /** v1: base64 JSON settlement on the paid response. */
  xPaymentResponse: 'X-PAYMENT-RESPONSE',
} as const

/** Response headers a browser client must be allowed to read (`Access-Control-Expose-Headers`). */
export const X402_EXPOSED_HEADERS = 'PAYMENT-REQUIRED, PAYMENT-RESPONSE, X-PAYMENT-RESPONSE'
/**
 * Request headers a CORS preflight must allow (`Access-Control-Allow-Headers`). The clients also send
 * `Access-Control-Expose-Headers` as a request header, oddly, so it has to be allowed too.
 */
export const X402_REQUEST_HEADERS = 'X-PAYMENT, PAYMENT-SIGNATURE, Access-Control-Expose-Headers'

/** One `accepts[]` entry of a v1 402 body. */
export interface V1PaymentRequirements {
  scheme: 'exact'
  network: string
  maxAmountRequired: string
  resource: string
  description: string
  mimeType: string
  payTo: `0x${string}`
  maxTimeoutSeconds: number
  asset: `0x${string}`
  extra: { name: string; version: string }
}

/** One `accepts[]` entry of a v2 `PAYMENT-REQUIRED` header; a v2 payment echoes it back verbatim as `accepted`. */
export interface V2PaymentRequirements {
  scheme: 'exact'
  network: `eip155:${number}`
  amount: string
  asset: `0x${string}`
  payTo: `0x${string}`
  maxTimeoutSeconds: number
  extra: { name: string; version: string }
}

export interface V1PaymentRequiredBody {
  x402Version: 1
  error: string
  accepts: V1PaymentRequirements[]
}

export interface V2PaymentRequired {
  x402Version: 2
  error: string
  resource: { url: string; description: string; mimeType: string }
  accepts: V2PaymentRequirements[]
}

const DEFAULT_ERROR = 'X-PAYMENT or PAYMENT-SIGNATURE header is required'

/**
 * The v1 form of a requirement. `outputSchema` is left out on purpose: x402-fetch 1.x rejects `null` there,
 * and `resource` must be absolute and `mimeType` present or it rejects the whole 402.
 */
export function toV1Requirements(
  requirement: PaymentRequirement,
  chains: readonly X402Chain[] = X402_CHAINS,
): V1PaymentRequirements {
  const chain = assertValidRequirement(requirement, chains)
  return {
    scheme: 'exact',
    network: chain.v1Name,
    maxAmountRequired: requirement.amount,
    resource: requirement.resource,
    description: requirement.description,
    mimeType: requirement.mimeType,
    payTo: requirement.payTo,
    maxTimeoutSeconds: requirement.maxTimeoutSeconds,
    asset: requirement.asset,
    extra: { name: requirement.extra.name, version: requirement.extra.version },
  }
}

/** The v2 form of a requirement. Deterministic, because a v2 payment must echo it back field for field. */
export function toV2Requirements(
  requirement: PaymentRequirement,
  chains: readonly X402Chain[] = X402_CHAINS,
): V2PaymentRequirements {
  const chain = assertValidRequirement(requirement, chains)
  return {
    scheme: 'exact',
    network: chain.caip2,
    amount: requirement.amount,
    asset: requirement.asset,
    payTo: requirement.payTo,
    maxTimeoutSeconds: requirement.maxTimeoutSeconds,
    extra: { name: requirement.extra.name, version: requirement.extra.version },
  }
}

/** The v2 top-level `resource` object (v2 moved these three fields out of each requirement). */
export function toV2Resource(requirement: PaymentRequirement): V2PaymentRequired['resource'] {
  return { url: requirement.resource, description: requirement.description, mimeType: requirement.mimeType }
}

/** The v1 JSON body of a 402 response. `error` is a human message or, after a refused payment, its reason code. */
export function createPaymentRequiredBody(
  requirement: PaymentRequirement,
  error = DEFAULT_ERROR,
  chains: readonly X402Chain[] = X402_CHAINS,
): V1PaymentRequiredBody {
  return { x402Version: 1, error, accepts: [toV1Requirements(requirement, chains)] }
}

/** The v2 `PAYMENT-REQUIRED` header value: base64 of the JSON the v2 client parses. */
export function encodePaymentRequiredHeader(
  requirement: PaymentRequirement,
  error = DEFAULT_ERROR,
  chains: readonly X402Chain[] = X402_CHAINS,
): string {
  const paymentRequired: V2PaymentRequired = {
    x402Version: 2,
    error,
    resource: toV2Resource(requirement),
    accepts: [toV2Requirements(requirement, chains)],
  }
  return encodeBase64Json(paymentRequired)
}

export interface PaymentRequiredResponse {
  status: 402
  headers: Record<string, string>
  /** Serialise with `JSON.stringify`; it is the v1 body, and v2 clients read the header instead. */
  body: V1PaymentRequiredBody
}

/**
 * Everything a 402 needs, for both client generations at once: v1 clients read the body, v2 clients read
 * the `PAYMENT-REQUIRED` header (and fall back to a v1 body), so one response serves both.
 */
export function createPaymentRequiredResponse(
  requirement: PaymentRequirement,
  error = DEFAULT_ERROR,
  chains: readonly X402Chain[] = X402_CHAINS,
): PaymentRequiredResponse {
  return {
    status: 402,
    headers: {
      'Content-Type': 'application/json',
      [X402_HEADERS.paymentRequired]: encodePaymentRequiredHeader(requirement, error, chains),
      'Access-Control-Expose-Headers': X402_EXPOSED_HEADERS,
    },
    body: createPaymentRequiredBody(requirement, error, chains),
  }
}

/**
 * The settlement header for a paid response, named after the version the client paid with
 * (`X-PAYMENT-RESPONSE` for v1, `PAYMENT-RESPONSE` for v2). Only the wire fields are sent: extra
 * fields such as `settledOnChain` stay server-side.
 */
export function encodePaymentResponseHeader(
  settlement: PaymentSettlement,
  x402Version: 1 | 2,
): { name: string; value: string } {
  const wire = {
    success: settlement.success,
    transaction: settlement.transaction,
    network: settlement.network,
    payer: settlement.payer,
    ...(settlement.errorReason === undefined ? {} : { errorReason: settlement.errorReason }),
  }
  const name = x402Version === 2 ? X402_HEADERS.paymentResponse : X402_HEADERS.xPaymentResponse
  return { name, value: encodeBase64Json(wire) }
}

export function encodeBase64Json(value: unknown): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64')
}
