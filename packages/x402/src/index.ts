/**
 * x402 pay-per-request building blocks for Pinfold: the networks and USDC domains, the v1 and v2 wire formats
 * (one 402 answers both client generations), an offline EIP-3009 verifier (viem, no chain) and an x402
 * facilitator client. Offline verification proves the payer signed a USDC transfer to you; it does not prove
 * funds exist or move any money. Replay protection is the caller's: claim `paymentReplayKey` atomically.
 *
 * @example
 * ```ts
 * import {
 *   createOfflineVerifier,
 *   createPaymentRequiredResponse,
 *   createUsdcRequirement,
 *   encodePaymentResponseHeader,
 *   readPaymentFromHeaders,
 * } from '@pinfold/x402'
 *
 * const requirement = createUsdcRequirement({
 *   network: 'base-sepolia',
 *   payTo: '0x209693Bc6afc0C5328bA36FaF03C514EF312287C',
 *   priceUsd: '0.0001', // 100 atomic units of USDC
 *   resource: 'https://files.example.com/v1/retrieve/private/bafy…',
 *   description: 'Private retrieval',
 * })
 * const verifier = createOfflineVerifier()
 *
 * // A fetch-style handler (Hono, Bun, Deno, `createFetchHandler`…).
 * export async function handle(request: Request): Promise<Response> {
 *   const paymentRequired = (error?: string) => {
 *     const { status, headers, body } = createPaymentRequiredResponse(requirement, error)
 *     return new Response(JSON.stringify(body), { status, headers })
 *   }
 *   const payment = readPaymentFromHeaders(request.headers, requirement) // throws INVALID_INPUT when malformed
 *   if (!payment) return paymentRequired()
 *   const verification = await verifier.verify(payment, requirement)
 *   if (!verification.valid) return paymentRequired(verification.reason)
 *   // Here the server must claim paymentReplayKey(payment) atomically, or one payment unlocks many requests.
 *   const settlement = await verifier.settle(payment, requirement)
 *   const { name, value } = encodePaymentResponseHeader(settlement, payment.x402Version)
 *   return Response.json({ url: 'https://…' }, { headers: { [name]: value } })
 * }
 * ```
 */
export {
  ACCEPTED_MISMATCH_REASON,
  decodePaymentHeader,
  type HeaderReader,
  MAX_PAYMENT_HEADER_LENGTH,
  readPaymentFromHeaders,
} from './decode-payment.js'
export {
  createFacilitatorRequest,
  createFacilitatorVerifier,
  type FacilitatorRequest,
  type FacilitatorSettlement,
  type FacilitatorVerifier,
  type FacilitatorVerifierOptions,
} from './facilitator-verifier.js'
export {
  type Eip3009Token,
  findChain,
  getChain,
  usdToAtomic,
  X402_CHAINS,
  type X402Chain,
} from './networks.js'
export {
  createOfflineVerifier,
  type OfflineRefusalReason,
  type OfflineSettlement,
  type OfflineVerifier,
  type OfflineVerifierOptions,
  paymentReplayKey,
  TRANSFER_WITH_AUTHORIZATION_TYPES,
} from './offline-verifier.js'
export { assertValidRequirement, createUsdcRequirement, type UsdcRequirementOptions } from './requirement.js'
export {
  createPaymentRequiredBody,
  createPaymentRequiredResponse,
  encodePaymentRequiredHeader,
  encodePaymentResponseHeader,
  type PaymentRequiredResponse,
  toV1Requirements,
  toV2Requirements,
  toV2Resource,
  type V1PaymentRequiredBody,
  type V1PaymentRequirements,
  type V2PaymentRequired,
  type V2PaymentRequirements,
  X402_EXPOSED_HEADERS,
  X402_HEADERS,
  X402_REQUEST_HEADERS,
} from './wire.js'
