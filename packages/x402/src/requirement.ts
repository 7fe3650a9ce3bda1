import type { PaymentRequirement } from '@pinfold/interface'
import { PinfoldError } from '@pinfold/interface'
import { getChain, usdToAtomic, X402_CHAINS, type X402Chain } from './networks.js'
import { isEvmAddress, isUint256String, sameAddress } from './shapes.js'

export interface UsdcRequirementOptions {
  /** x402 v1 name or CAIP-2 id of a known chain; the requirement always stores the v1 name. */
  network: string
  payTo: `0x${string}`
  /** Price in US dollars as a decimal string, e.g. `'0.0001'`. */
  priceUsd: string
  /** Absolute URL of the resource being paid for (the v1 client rejects relative ones). */
  resource: string
  description: string
  mimeType?: string
  /** How long a signed authorization stays redeemable; keep it well above clock skew plus a round trip. */
  maxTimeoutSeconds?: number
  chains?: readonly X402Chain[]
}

/** Builds the requirement for a USDC price on a known chain, with the token's address and EIP-712 domain filled in. */
export function createUsdcRequirement(options: UsdcRequirementOptions): PaymentRequirement {
  const chain = getChain(options.network, options.chains)
  const requirement: PaymentRequirement = {
    scheme: 'exact',
    network: chain.v1Name,
    asset: chain.usdc.address,
    payTo: options.payTo,
    amount: usdToAtomic(options.priceUsd, chain.usdc.decimals),
    resource: options.resource,
    description: options.description,
    mimeType: options.mimeType ?? 'application/json',
    maxTimeoutSeconds: options.maxTimeoutSeconds ?? 60,
    extra: { name: chain.usdc.name, version: chain.usdc.version },
  }
  assertValidRequirement(requirement, options.chains)
  return requirement
}

/**
 * Checks a requirement before it goes on the wire or into a verifier. A bad one is a server misconfiguration,
 * so it throws `INVALID_INPUT` with a message naming the field, rather than producing 402s no client can pay.
 * The asset must be the chain's known token with its exact EIP-712 domain, because that domain is what
 * clients sign under and a mismatch would make every payment fail signature recovery.
 */
export function assertValidRequirement(
  requirement: PaymentRequirement,
  chains: readonly X402Chain[] = X402_CHAINS,
): X402Chain {
  const fail = (message: string): never => {
    throw new PinfoldError('INVALID_INPUT', `@pinfold/x402: payment requirement ${message}`)
  }
  if (requirement.scheme !== 'exact') fail(`scheme must be "exact", got "${requirement.scheme}"`)
  const chain = getChain(requirement.network, chains)
  if (requirement.network !== chain.v1Name) fail(`network must be the x402 v1 name "${chain.v1Name}"`)
  if (!isEvmAddress(requirement.payTo)) fail('payTo must be a 0x-prefixed 20-byte address')
  if (!isEvmAddress(requirement.asset) || !sameAddress(requirement.asset, chain.usdc.address)) {
    fail(`asset must be ${chain.usdc.address} (USDC on ${chain.v1Name})`)
  }
  const { name, version } = requirement.extra ?? {}
  if (name !== chain.usdc.name || version !== chain.usdc.version) {
    fail(`extra must be the token's EIP-712 domain {name: "${chain.usdc.name}", version: "${chain.usdc.version}"}`)
  }
  if (!isUint256String(requirement.amount) || BigInt(requirement.amount) === 0n) {
    fail('amount must be a positive integer string in atomic units')
  }
  if (!URL.canParse(requirement.resource)) fail('resource must be an absolute URL')
  if (typeof requirement.description !== 'string') fail('description must be a string')
  if (typeof requirement.mimeType !== 'string' || requirement.mimeType === '') fail('mimeType must be a string')
  if (!Number.isSafeInteger(requirement.maxTimeoutSeconds) || requirement.maxTimeoutSeconds <= 0) {
    fail('maxTimeoutSeconds must be a positive integer')
  }
  return chain
}
