/**
 * What core needs to know about payment networks and tokens, without depending on a chain library.
 * `@pinfold/x402`'s `X402_CHAINS` has exactly this shape, so it can be passed as `networks`.
 */
export interface PaymentNetwork {
  /** x402 v1 name, e.g. `base-sepolia`. */
  v1Name: string
  /** CAIP-2 id, e.g. `eip155:84532`. */
  caip2: string
  chainId: number
  /** The EIP-3009 token (USDC) and the EIP-712 domain payers sign under. */
  usdc: { address: `0x${string}`; name: string; version: string; decimals: number }
}

/** Server-wide settings of pay-per-request (see `paymentOptionsFromEnv` in `@pinfold/http-node`). */
export interface PaymentSettings {
  /** The networks payment instructions may name. */
  networks: readonly PaymentNetwork[]
  /** Network of a payment requirement that names none; default: the first of `networks`. */
  defaultNetwork?: string | undefined
  /** Receiving address of a payment requirement that names none (`PINFOLD_X402_PAY_TO`). */
  defaultPayTo?: `0x${string}` | undefined
  /** Price of one retrieval in atomic units when a requirement names no amount; default `"100"` (0.0001 USDC). */
  defaultAmount?: string | undefined
  /** How long a paid download link stays valid; default 60 s. */
  linkSeconds?: number | undefined
  /** How long a signed payment stays redeemable (`maxTimeoutSeconds`); default 60 s. */
  maxTimeoutSeconds?: number | undefined
}
