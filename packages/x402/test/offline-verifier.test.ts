import type { PaymentPayload } from '@pinfold/interface'
import { describe, expect, it } from 'vitest'
import { createOfflineVerifier, createUsdcRequirement, paymentReplayKey } from '../src/index.js'
import {
  baseSepoliaRequirement,
  fixedClock,
  NOW_SECONDS,
  OTHER_ADDRESS,
  PAY_TO,
  randomAccount,
  signPayment,
} from './helpers.js'

const requirement = baseSepoliaRequirement()
const verifier = createOfflineVerifier({ clock: fixedClock() })
const account = randomAccount()

async function expectRefused(payment: PaymentPayload, reason: string) {
  await expect(verifier.verify(payment, requirement)).resolves.toEqual({ valid: false, reason })
}

/** Flips one hex digit inside `r`, keeping the signature well-formed. */
function flipSignatureDigit(signature: `0x${string}`): `0x${string}` {
  const digit = signature[10] === '0' ? '1' : '0'
  return `${signature.slice(0, 10)}${digit}${signature.slice(11)}` as `0x${string}`
}

describe('createOfflineVerifier', () => {
  it('verify - accepts a v1 payment signed for the offer and names the payer and nonce', async () => {
    const payment = await signPayment({ account, requirement })
    await expect(verifier.verify(payment, requirement)).resolves.toEqual({
      valid: true,
      payer: account.address,
      nonce: payment.authorization.nonce,
    })
  })

  it('verify - accepts a v2 payment with validAfter "0"', async () => {
    const payment = await signPayment({ account, requirement, x402Version: 2 })
    expect(payment.authorization.validAfter).toBe('0')
    await expect(verifier.verify(payment, requirement)).resolves.toMatchObject({ valid: true })
  })

  it('verify - accepts a v1 overpayment, which the v1 rule allows', async () => {
    const payment = await signPayment({ account, requirement, authorization: { value: '150' } })
    await expect(verifier.verify(payment, requirement)).resolves.toMatchObject({ valid: true })
  })

  it('verify - accepts a Base mainnet payment signed under the "USD Coin" domain', async () => {
    const base = createUsdcRequirement({
      network: 'base',
      payTo: PAY_TO,
      priceUsd: '0.0001',
      resource: 'https://files.example.com/x',
      description: 'x',
    })
    const payment = await signPayment({ account, requirement: base, x402Version: 2 })
    await expect(verifier.verify(payment, base)).resolves.toMatchObject({ valid: true })
  })

  it('verify - refuses a tampered signature', async () => {
    const payment = await signPayment({ account, requirement })
    await expectRefused(
      { ...payment, signature: flipSignatureDigit(payment.signature) },
      'invalid_exact_evm_payload_signature',
    )
  })

  it('verify - refuses a value raised after signing', async () => {
    const payment = await signPayment({ account, requirement })
    const tampered = { ...payment, authorization: { ...payment.authorization, value: '1000000' } }
    await expectRefused(tampered, 'invalid_exact_evm_payload_signature')
  })

  it('verify - refuses an underpayment', async () => {
    const payment = await signPayment({ account, requirement, authorization: { value: '99' } })
    await expectRefused(payment, 'invalid_exact_evm_payload_authorization_value')
  })

  it('verify - refuses a v2 overpayment, since v2 demands the exact amount', async () => {
    const payment = await signPayment({ account, requirement, x402Version: 2, authorization: { value: '101' } })
    await expectRefused(payment, 'invalid_exact_evm_payload_authorization_value')
  })

  it('verify - refuses an expired authorization', async () => {
    const payment = await signPayment({ account, requirement, authorization: { validBefore: String(NOW_SECONDS - 1) } })
    await expectRefused(payment, 'invalid_exact_evm_payload_authorization_valid_before')
  })

  it('verify - refuses an authorization expiring too soon to settle', async () => {
    const payment = await signPayment({ account, requirement, authorization: { validBefore: String(NOW_SECONDS + 5) } })
    await expectRefused(payment, 'invalid_exact_evm_payload_authorization_valid_before')
  })

  it('verify - refuses an authorization valid for longer than maxTimeoutSeconds plus skew', async () => {
    const payment = await signPayment({
      account,
      requirement,
      authorization: { validBefore: String(NOW_SECONDS + 3600) },
    })
    await expectRefused(payment, 'invalid_exact_evm_payload_authorization_valid_before')
  })

  it('verify - refuses an authorization that is not valid yet', async () => {
    const payment = await signPayment({ account, requirement, authorization: { validAfter: String(NOW_SECONDS + 10) } })
    await expectRefused(payment, 'invalid_exact_evm_payload_authorization_valid_after')
  })

  it('verify - judges the time window by the injected clock', async () => {
    const payment = await signPayment({ account, requirement })
    const later = createOfflineVerifier({ clock: fixedClock(NOW_SECONDS + 61) })
    await expect(later.verify(payment, requirement)).resolves.toEqual({
      valid: false,
      reason: 'invalid_exact_evm_payload_authorization_valid_before',
    })
  })

  it('verify - refuses a payment for another network', async () => {
    const v1 = await signPayment({ account, requirement })
    await expectRefused({ ...v1, network: 'base' }, 'invalid_network')
    // A v2 payment must name the network by its CAIP-2 id, a v1 payment by its v1 name.
    await expectRefused({ ...v1, network: 'eip155:84532' }, 'invalid_network')
    const v2 = await signPayment({ account, requirement, x402Version: 2 })
    await expectRefused({ ...v2, network: 'base-sepolia' }, 'invalid_network')
  })

  it('verify - refuses a payment signed for another chain id', async () => {
    const payment = await signPayment({ account, requirement, domain: { chainId: 8453 } })
    await expectRefused(payment, 'invalid_exact_evm_payload_signature')
  })

  it('verify - refuses a payment to another recipient', async () => {
    const payment = await signPayment({ account, requirement, authorization: { to: OTHER_ADDRESS } })
    await expectRefused(payment, 'invalid_exact_evm_payload_recipient_mismatch')
  })

  it('verify - compares the recipient case-insensitively', async () => {
    const payment = await signPayment({ account, requirement, authorization: { to: PAY_TO.toLowerCase() } })
    await expect(verifier.verify(payment, requirement)).resolves.toMatchObject({ valid: true })
  })

  it('verify - refuses a payment signed for another token or EIP-712 domain', async () => {
    const otherToken = await signPayment({
      account,
      requirement,
      domain: { verifyingContract: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' },
    })
    await expectRefused(otherToken, 'invalid_exact_evm_payload_signature')
    // The classic mistake: Base mainnet's domain name on Base Sepolia.
    const wrongName = await signPayment({ account, requirement, domain: { name: 'USD Coin' } })
    await expectRefused(wrongName, 'invalid_exact_evm_payload_signature')
    const wrongVersion = await signPayment({ account, requirement, domain: { version: '1' } })
    await expectRefused(wrongVersion, 'invalid_exact_evm_payload_signature')
  })

  it('verify - refuses a payment signed by someone other than from', async () => {
    const payment = await signPayment({ account: randomAccount(), requirement })
    const impostor = { ...payment, authorization: { ...payment.authorization, from: account.address } }
    await expectRefused(impostor, 'invalid_exact_evm_payload_signature')
  })

  it('verify - refuses another scheme and malformed fields without throwing', async () => {
    const payment = await signPayment({ account, requirement })
    await expectRefused({ ...payment, scheme: 'upto' }, 'unsupported_scheme')
    const withAuthorization = (patch: Record<string, string>) =>
      ({ ...payment, authorization: { ...payment.authorization, ...patch } }) as PaymentPayload
    await expectRefused(withAuthorization({ nonce: '0x1234' }), 'invalid_payload')
    await expectRefused(withAuthorization({ value: 'lots' }), 'invalid_payload')
    await expectRefused(withAuthorization({ to: '0xnope' }), 'invalid_payload')
    await expectRefused({ ...payment, signature: '0x' }, 'invalid_payload')
    await expectRefused({ ...payment, authorization: undefined } as unknown as PaymentPayload, 'invalid_payload')
  })

  it('verify - throws INVALID_INPUT for a misconfigured requirement, which is not the payer’s fault', async () => {
    const payment = await signPayment({ account, requirement })
    await expect(
      verifier.verify(payment, { ...requirement, extra: { name: 'USD Coin', version: '2' } }),
    ).rejects.toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }))
  })

  it('verify - rejects with ABORTED when the signal is already aborted', async () => {
    const payment = await signPayment({ account, requirement })
    await expect(verifier.verify(payment, requirement, { signal: AbortSignal.abort() })).rejects.toThrow(
      expect.objectContaining({ code: 'ABORTED' }),
    )
  })

  it('settle - reports success with no transaction and marks that nothing moved on chain', async () => {
    const payment = await signPayment({ account, requirement, x402Version: 2 })
    await expect(verifier.settle(payment, requirement)).resolves.toEqual({
      success: true,
      transaction: '',
      network: 'eip155:84532',
      payer: account.address,
      settledOnChain: false,
    })
  })

  it('settle - re-verifies and fails for a payment that is no longer valid', async () => {
    const payment = await signPayment({ account, requirement })
    const later = createOfflineVerifier({ clock: fixedClock(NOW_SECONDS + 3600) })
    await expect(later.settle(payment, requirement)).resolves.toEqual({
      success: false,
      errorReason: 'invalid_exact_evm_payload_authorization_valid_before',
      transaction: '',
      network: 'base-sepolia',
      payer: account.address,
      settledOnChain: false,
    })
  })

  it('paymentReplayKey - lowercases payer and nonce so differently-cased copies collide', async () => {
    const payment = await signPayment({ account, requirement, authorization: { nonce: `0x${'AB'.repeat(32)}` } })
    expect(paymentReplayKey(payment)).toEqual({ payer: account.address.toLowerCase(), nonce: `0x${'ab'.repeat(32)}` })
  })
})
