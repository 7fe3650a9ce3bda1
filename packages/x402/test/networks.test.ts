import { describe, expect, it } from 'vitest'
import { assertValidRequirement, createUsdcRequirement, findChain, getChain, usdToAtomic } from '../src/index.js'
import { baseSepoliaRequirement, PAY_TO } from './helpers.js'

describe('networks', () => {
  it('usdToAtomic - prices 0.0001 USD at 100 USDC atomic units', () => {
    expect(usdToAtomic('0.0001')).toBe('100')
    expect(usdToAtomic('$0.0001')).toBe('100')
  })

  it('usdToAtomic - uses integer math for whole, padded and trailing-zero amounts', () => {
    expect(usdToAtomic('1')).toBe('1000000')
    expect(usdToAtomic('0.10')).toBe('100000')
    expect(usdToAtomic('0.0000010')).toBe('1')
    expect(usdToAtomic('12345678901234567890.123456')).toBe('12345678901234567890123456')
    expect(usdToAtomic('0.29', 2)).toBe('29')
  })

  it('usdToAtomic - refuses amounts below the smallest unit and non-decimals with INVALID_INPUT', () => {
    for (const bad of ['0.0000001', '-1', '1e-4', '', '.5', '1.', 'abc', '0x10']) {
      expect(() => usdToAtomic(bad), bad).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }))
    }
  })

  it('findChain - finds a chain by v1 name and by CAIP-2 id', () => {
    expect(findChain('base-sepolia')?.chainId).toBe(84532)
    expect(findChain('eip155:84532')?.v1Name).toBe('base-sepolia')
    expect(findChain('eip155:8453')?.v1Name).toBe('base')
    expect(findChain('ethereum')).toBeUndefined()
  })

  it('getChain - keeps the EIP-712 names of Base and Base Sepolia USDC apart', () => {
    expect(getChain('base-sepolia').usdc).toEqual({
      address: '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
      name: 'USDC',
      version: '2',
      decimals: 6,
    })
    expect(getChain('base').usdc).toEqual({
      address: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
      name: 'USD Coin',
      version: '2',
      decimals: 6,
    })
  })

  it('getChain - an unknown network is INVALID_INPUT naming the known ones', () => {
    expect(() => getChain('polygon')).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }))
    expect(() => getChain('polygon')).toThrow(/base-sepolia/)
  })

  it('createUsdcRequirement - fills the asset, atomic amount and domain, storing the v1 network name', () => {
    const requirement = createUsdcRequirement({
      network: 'eip155:8453',
      payTo: PAY_TO,
      priceUsd: '0.0001',
      resource: 'https://files.example.com/x',
      description: 'x',
    })
    expect(requirement).toEqual({
      scheme: 'exact',
      network: 'base',
      asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
      payTo: PAY_TO,
      amount: '100',
      resource: 'https://files.example.com/x',
      description: 'x',
      mimeType: 'application/json',
      maxTimeoutSeconds: 60,
      extra: { name: 'USD Coin', version: '2' },
    })
  })

  it('assertValidRequirement - refuses misconfigured requirements with INVALID_INPUT', () => {
    const good = baseSepoliaRequirement()
    const bad = [
      { ...good, resource: '/v1/retrieve/private/bafy' },
      { ...good, extra: { name: 'USD Coin', version: '2' } },
      { ...good, asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' as const },
      { ...good, payTo: '0x1234' as const },
      { ...good, amount: '0' },
      { ...good, amount: '1.5' },
      { ...good, network: 'eip155:84532' },
      { ...good, maxTimeoutSeconds: 0 },
      { ...good, mimeType: '' },
      { ...good, scheme: 'upto' as 'exact' },
    ]
    for (const requirement of bad) {
      expect(() => assertValidRequirement(requirement)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }))
    }
    expect(assertValidRequirement(good).chainId).toBe(84532)
  })
})
