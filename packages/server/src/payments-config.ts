import { optionChecks, type PaymentSettings, type PaymentVerifier } from '@pinfold/core'
import { createFacilitatorVerifier, createOfflineVerifier, findChain, X402_CHAINS } from '@pinfold/x402'

const ADDRESS = /^0x[0-9a-fA-F]{40}$/

// readConfig reads these at start-up, so a bad variable stops the server before it listens
const check = optionChecks('@pinfold/server', 'paymentOptionsFromEnv', 'variable')

/**
 * The payment verifier the server uses for `GET /v1/retrieve/private/{cid}`:
 * - `PINFOLD_X402_FACILITATOR_URL` set: an x402 facilitator verifies and settles (`/verify`, then
 *   `/settle` before the link is revealed); `PINFOLD_X402_FACILITATOR_TIMEOUT_MS` bounds each call
 *   (default 10 s). An unreachable or failing facilitator answers 503 and no link.
 * - unset: offline EIP-712/EIP-3009 verification with viem. It proves the payer SIGNED a USDC transfer
 *   to `pay_to`; it does not move money or prove funds exist (see `@pinfold/x402`'s README).
 */
export function paymentVerifierFromEnv(env: NodeJS.ProcessEnv = process.env): PaymentVerifier {
  const url = env.PINFOLD_X402_FACILITATOR_URL
  if (!url) return createOfflineVerifier()
  const timeout = env.PINFOLD_X402_FACILITATOR_TIMEOUT_MS
  const timeoutMs = timeout ? check.positiveInteger('PINFOLD_X402_FACILITATOR_TIMEOUT_MS', Number(timeout)) : undefined
  return createFacilitatorVerifier({ url, ...(timeoutMs === undefined ? {} : { timeoutMs }) })
}

/**
 * Everything `createFileService` needs for x402, from the environment: spread it into the options,
 * `createFileService({ records, blobs, signingSecret, ...paymentOptionsFromEnv(process.env) })`.
 * `PINFOLD_X402_PAY_TO` and `PINFOLD_X402_NETWORK` (default `base-sepolia`) are the defaults of new
 * payment instructions; an instruction's own `pay_to`, `network` and `asset` always win.
 */
export function paymentOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): {
  payments: PaymentVerifier
  paymentSettings: PaymentSettings
} {
  const payTo = env.PINFOLD_X402_PAY_TO || undefined
  if (payTo !== undefined && !ADDRESS.test(payTo)) {
    throw check.error('PINFOLD_X402_PAY_TO', 'must be a 0x-prefixed 20-byte address')
  }
  const network = env.PINFOLD_X402_NETWORK || 'base-sepolia'
  const chain = findChain(network)
  if (!chain) {
    const known = X402_CHAINS.map((c) => c.v1Name).join(', ')
    throw check.error('PINFOLD_X402_NETWORK', `must be one of ${known}, got "${network}"`)
  }
  return {
    payments: paymentVerifierFromEnv(env),
    paymentSettings: {
      networks: X402_CHAINS,
      defaultNetwork: chain.v1Name,
      ...(payTo === undefined ? {} : { defaultPayTo: payTo as `0x${string}` }),
    },
  }
}
