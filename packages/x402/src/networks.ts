import { PinfoldError } from '@pinfold/interface'

/** An EIP-3009 token (USDC) and the EIP-712 domain its `transferWithAuthorization` signatures are made under. */
export interface Eip3009Token {
  address: `0x${string}`
  /** EIP-712 domain `name`; it is NOT the same on every chain ("USDC" on Base Sepolia, "USD Coin" on Base). */
  name: string
  version: string
  decimals: number
}

/** One EVM network as x402 names it: v1 uses short names, v2 uses CAIP-2 ids. */
export interface X402Chain {
  /** x402 v1 network name, e.g. `base-sepolia`. */
  v1Name: string
  /** x402 v2 CAIP-2 network id, e.g. `eip155:84532`. */
  caip2: `eip155:${number}`
  chainId: number
  usdc: Eip3009Token
}

/**
 * The networks Pinfold knows out of the box. Addresses and domains are copied from the x402 reference
 * (`@x402/evm` default assets); a wrong `name` yields signatures that parse but never recover.
 */
export const X402_CHAINS: readonly X402Chain[] = [
  {
    v1Name: 'base-sepolia',
    caip2: 'eip155:84532',
    chainId: 84532,
    usdc: { address: '0x036CbD53842c5426634e7929541eC2318f3dCF7e', name: 'USDC', version: '2', decimals: 6 },
  },
  {
    v1Name: 'base',
    caip2: 'eip155:8453',
    chainId: 8453,
    usdc: { address: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', name: 'USD Coin', version: '2', decimals: 6 },
  },
]

/** Finds a chain by its v1 name or its CAIP-2 id. */
export function findChain(network: string, chains: readonly X402Chain[] = X402_CHAINS): X402Chain | undefined {
  return chains.find((chain) => chain.v1Name === network || chain.caip2 === network)
}

/** Like {@link findChain}, but an unknown network is an `INVALID_INPUT` error naming the known ones. */
export function getChain(network: string, chains: readonly X402Chain[] = X402_CHAINS): X402Chain {
  const chain = findChain(network, chains)
  if (!chain) {
    const known = chains.map((c) => `${c.v1Name} (${c.caip2})`).join(', ')
    throw new PinfoldError('INVALID_INPUT', `@pinfold/x402: unknown network "${network}"; known: ${known}`)
  }
  return chain
}

const DECIMAL_AMOUNT = /^(\d+)(?:\.(\d+))?$/

/**
 * Converts a decimal amount (`'0.0001'`, `'$0.0001'`) into the token's atomic units (`'100'` for 6 decimals)
 * with integer arithmetic only: floats would turn 0.0001 * 10^6 into 99.99999999999999.
 * More fractional digits than the token has is an `INVALID_INPUT` error, never a silent rounding.
 */
export function usdToAtomic(amount: string, decimals = 6): string {
  const match = DECIMAL_AMOUNT.exec(amount.startsWith('$') ? amount.slice(1) : amount)
  if (!match) {
    throw new PinfoldError('INVALID_INPUT', `@pinfold/x402: "${amount}" is not a non-negative decimal amount`)
  }
  const whole = match[1] ?? '0'
  const fraction = (match[2] ?? '').replace(/0+$/, '')
  if (fraction.length > decimals) {
    throw new PinfoldError(
      'INVALID_INPUT',
      `@pinfold/x402: "${amount}" has more than ${decimals} decimal places, the token's smallest unit`,
    )
  }
  return BigInt(whole + fraction.padEnd(decimals, '0')).toString()
}
