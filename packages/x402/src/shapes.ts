import { isAddress, isHex } from 'viem'

const MAX_UINT256 = 2n ** 256n - 1n
const DECIMAL_UINT = /^\d{1,78}$/
const BYTES32 = /^0x[0-9a-fA-F]{64}$/

/** A `0x` address in any letter case: clients send both checksummed and lowercase addresses. */
export function isEvmAddress(value: unknown): value is `0x${string}` {
  return typeof value === 'string' && isAddress(value, { strict: false })
}

/** A decimal string that fits a Solidity `uint256`, the type every EIP-3009 number is signed as. */
export function isUint256String(value: unknown): value is string {
  return typeof value === 'string' && DECIMAL_UINT.test(value) && BigInt(value) <= MAX_UINT256
}

/** An EIP-3009 nonce: exactly 32 bytes of hex. */
export function isBytes32(value: unknown): value is `0x${string}` {
  return typeof value === 'string' && BYTES32.test(value)
}

/** Non-empty, whole-byte hex: 65 bytes for an EOA, longer for smart-wallet (ERC-1271/6492) signatures. */
export function isSignatureHex(value: unknown): value is `0x${string}` {
  return typeof value === 'string' && value.length > 2 && value.length % 2 === 0 && isHex(value, { strict: true })
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
