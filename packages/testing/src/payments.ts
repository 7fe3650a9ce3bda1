import { TRANSFER_WITH_AUTHORIZATION_TYPES } from '@pinfold/x402'
import { bytesToHex, type LocalAccount } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { type ApiTarget, form, startTestApi, type TestApi, type TestApiOptions } from './test-api.js'

export const PAY_TO = '0x209693Bc6afc0C5328bA36FaF03C514EF312287C'
export const OTHER_ADDRESS = '0x1111111111111111111111111111111111111111'
export const USDC_BASE_SEPOLIA = '0x036CbD53842c5426634e7929541eC2318f3dCF7e'
export const USDC_BASE = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'

/**
 * The in-process API with x402 configured as `PINFOLD_X402_PAY_TO=PAY_TO` does it (offline
 * verifier unless `facilitatorUrl` is given), on memory stores unless the test passes its own
 * (the Postgres tests pass theirs).
 */
export function startPaidApi(options: TestApiOptions = {}): Promise<TestApi> {
  return startTestApi({ storage: 'memory', payTo: PAY_TO, ...options })
}

/** Uploads a private file as tenant `org` and returns its CID. */
export async function uploadPrivate(server: ApiTarget, bytes: string | Uint8Array, org = 'acme'): Promise<string> {
  const res = await server.api('/v3/files', {
    method: 'POST',
    body: form({ network: 'private' }, { bytes, name: 'secret.txt', type: 'text/plain' }),
    org,
  })
  if (res.status !== 200) throw new Error(`upload failed: ${res.status} ${await res.text()}`)
  return ((await res.json()) as { data: { cid: string } }).data.cid
}

/** Creates an instruction (server defaults unless `body` says otherwise) and attaches `cid`; returns its id. */
export async function priceCid(
  server: ApiTarget,
  cid: string,
  body: Record<string, unknown> = { name: 'premium' },
  org = 'acme',
): Promise<string> {
  const created = await server.api('/v3/x402/payment_instructions', {
    method: 'POST',
    body: JSON.stringify(body),
    org,
  })
  if (created.status !== 200) throw new Error(`create failed: ${created.status} ${await created.text()}`)
  const { id } = ((await created.json()) as { data: { id: string } }).data
  const attached = await server.api(`/v3/x402/payment_instructions/${id}/cids/${cid}`, { method: 'PUT', org })
  if (attached.status !== 200) throw new Error(`attach failed: ${attached.status} ${await attached.text()}`)
  return id
}

export const randomAccount = (): LocalAccount => privateKeyToAccount(generatePrivateKey())

export interface SignOptions {
  account: LocalAccount
  x402Version?: 1 | 2
  resource: string
  network?: 'base-sepolia' | 'base'
  /** Fields of the signed authorization to override. */
  authorization?: Partial<Record<'to' | 'value' | 'validAfter' | 'validBefore' | 'nonce', string>>
}

/**
 * A payment header signed the way the real clients sign (viem, EIP-712 over the USDC domain), for the
 * cases the real clients refuse to produce: tampered, underpaid, expired, other network or recipient.
 */
export async function signedHeader(options: SignOptions): Promise<{ name: string; value: string }> {
  const x402Version = options.x402Version ?? 1
  const network = options.network ?? 'base-sepolia'
  const chain =
    network === 'base'
      ? { chainId: 8453, asset: USDC_BASE, name: 'USD Coin', caip2: 'eip155:8453' }
      : { chainId: 84532, asset: USDC_BASE_SEPOLIA, name: 'USDC', caip2: 'eip155:84532' }
  const now = Math.floor(Date.now() / 1000)
  const authorization = {
    from: options.account.address,
    to: PAY_TO,
    value: '100',
    validAfter: String(now - 600),
    validBefore: String(now + 60),
    nonce: bytesToHex(crypto.getRandomValues(new Uint8Array(32))),
    ...options.authorization,
  }
  const signature = await options.account.signTypedData({
    domain: { name: chain.name, version: '2', chainId: chain.chainId, verifyingContract: chain.asset as `0x${string}` },
    types: TRANSFER_WITH_AUTHORIZATION_TYPES,
    primaryType: 'TransferWithAuthorization',
    message: {
      from: authorization.from,
      to: authorization.to as `0x${string}`,
      value: BigInt(authorization.value),
      validAfter: BigInt(authorization.validAfter),
      validBefore: BigInt(authorization.validBefore),
      nonce: authorization.nonce as `0x${string}`,
    },
  })
  const payload = { signature, authorization }
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64')
  if (x402Version === 1) {
    return { name: 'X-PAYMENT', value: encode({ x402Version: 1, scheme: 'exact', network, payload }) }
  }
  const accepted = {
    scheme: 'exact',
    network: chain.caip2,
    amount: '100',
    asset: chain.asset,
    payTo: PAY_TO,
    maxTimeoutSeconds: 60,
    extra: { name: chain.name, version: '2' },
  }
  return {
    name: 'PAYMENT-SIGNATURE',
    value: encode({
      x402Version: 2,
      resource: { url: options.resource, description: 'x', mimeType: 'application/json' },
      accepted,
      payload,
    }),
  }
}

/** Decodes a base64 JSON header (PAYMENT-REQUIRED, PAYMENT-RESPONSE, X-PAYMENT-RESPONSE). */
export function decodeHeader(value: string | null): Record<string, unknown> {
  if (value === null) throw new Error('header missing')
  return JSON.parse(Buffer.from(value, 'base64').toString('utf8')) as Record<string, unknown>
}
