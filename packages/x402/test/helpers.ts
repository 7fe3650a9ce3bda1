import type { Clock, PaymentPayload, PaymentRequirement } from '@pinfold/interface'
import { bytesToHex, type LocalAccount } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import {
  createUsdcRequirement,
  TRANSFER_WITH_AUTHORIZATION_TYPES,
  toV2Requirements,
  toV2Resource,
} from '../src/index.js'

export const PAY_TO = '0x209693Bc6afc0C5328bA36FaF03C514EF312287C'
export const OTHER_ADDRESS = '0x1111111111111111111111111111111111111111'
/** 2026-11-01T00:00:00Z, the fixed "now" of the verifier tests. */
export const NOW_SECONDS = 1_793_491_200

export const fixedClock = (seconds = NOW_SECONDS): Clock => ({ now: () => new Date(seconds * 1000) })

export function baseSepoliaRequirement(resource = 'https://files.example.com/v1/retrieve/private/bafyTest') {
  return createUsdcRequirement({
    network: 'base-sepolia',
    payTo: PAY_TO,
    priceUsd: '0.0001',
    resource,
    description: 'Private retrieval',
  })
}

export const randomAccount = (): LocalAccount => privateKeyToAccount(generatePrivateKey())

export interface SignOptions {
  account: LocalAccount
  requirement: PaymentRequirement
  x402Version?: 1 | 2
  /** Fields of the signed authorization to override. */
  authorization?: Partial<Record<'to' | 'value' | 'validAfter' | 'validBefore' | 'nonce', string>>
  /** EIP-712 domain fields to override, to simulate a payer signing for the wrong token or chain. */
  domain?: Partial<{ name: string; version: string; chainId: number; verifyingContract: `0x${string}` }>
  now?: number
}

/** Signs an EIP-3009 authorization the way the real clients do, with viem, and returns the normalised payment. */
export async function signPayment(options: SignOptions): Promise<PaymentPayload> {
  const { account, requirement } = options
  const x402Version = options.x402Version ?? 1
  const now = options.now ?? NOW_SECONDS
  const authorization = {
    from: account.address,
    to: requirement.payTo,
    value: requirement.amount,
    validAfter: x402Version === 2 ? '0' : String(now - 600),
    validBefore: String(now + requirement.maxTimeoutSeconds),
    nonce: bytesToHex(crypto.getRandomValues(new Uint8Array(32))),
    ...options.authorization,
  } as PaymentPayload['authorization']
  const chainId = requirement.network === 'base' ? 8453 : 84532
  const signature = await account.signTypedData({
    domain: {
      name: requirement.extra.name,
      version: requirement.extra.version,
      chainId,
      verifyingContract: requirement.asset,
      ...options.domain,
    },
    types: TRANSFER_WITH_AUTHORIZATION_TYPES,
    primaryType: 'TransferWithAuthorization',
    message: {
      from: authorization.from,
      to: authorization.to,
      value: BigInt(authorization.value),
      validAfter: BigInt(authorization.validAfter),
      validBefore: BigInt(authorization.validBefore),
      nonce: authorization.nonce,
    },
  })
  const network = x402Version === 2 ? `eip155:${chainId}` : requirement.network
  return { x402Version, scheme: 'exact', network, signature, authorization }
}

const base64Json = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64')

/** The `X-PAYMENT` value a v1 client would send. */
export function v1Header(payment: PaymentPayload): string {
  const { signature, authorization } = payment
  return base64Json({
    x402Version: 1,
    scheme: payment.scheme,
    network: payment.network,
    payload: { signature, authorization },
  })
}

/** The `PAYMENT-SIGNATURE` value a v2 client would send, optionally with a doctored `accepted`. */
export function v2Header(
  payment: PaymentPayload,
  requirement: PaymentRequirement,
  accepted: Record<string, unknown> = { ...toV2Requirements(requirement) },
): string {
  const { signature, authorization } = payment
  return base64Json({
    x402Version: 2,
    resource: toV2Resource(requirement),
    accepted,
    payload: { authorization, signature },
  })
}
