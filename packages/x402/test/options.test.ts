import { describe, expect, it } from 'vitest'
import { createFacilitatorVerifier, createOfflineVerifier, type FacilitatorVerifierOptions } from '../src/index.js'

const BAD: [string, FacilitatorVerifierOptions][] = [
  ['url', { url: undefined as unknown as string }],
  ['url', { url: 'x402.org/facilitator' }],
  ['url', { url: 'ftp://x402.org' }],
  ['timeoutMs', { url: 'https://x402.org/facilitator', timeoutMs: 0 }],
  ['timeoutMs', { url: 'https://x402.org/facilitator', timeoutMs: 1.5 }],
]

describe('createFacilitatorVerifier options', () => {
  it.each(BAD)(
    'createFacilitatorVerifier - a bad `%s` is INVALID_INPUT at construction, naming package and option',
    (option, bad) => {
      expect(() => createFacilitatorVerifier(bad)).toThrow(
        expect.objectContaining({
          code: 'INVALID_INPUT',
          message: expect.stringContaining(`@pinfold/x402 createFacilitatorVerifier: option \`${option}\``),
        }),
      )
    },
  )
})

describe('createOfflineVerifier options', () => {
  it.each([
    ['chains', { chains: [] }],
    ['clock', { clock: {} as { now(): Date } }],
  ] as const)(
    'createOfflineVerifier - a bad `%s` is INVALID_INPUT at construction, naming package and option',
    (option, bad) => {
      expect(() => createOfflineVerifier(bad)).toThrow(
        expect.objectContaining({
          code: 'INVALID_INPUT',
          message: expect.stringContaining(`@pinfold/x402 createOfflineVerifier: option \`${option}\``),
        }),
      )
    },
  )
})
