// Format checks only, as plain patterns: importing viem for them would load all of it (~30 MB
// resident) into every server; viem is loaded where a signature is actually verified.
const ADDRESS = /^0x[0-9a-fA-F]{40}$/
const HEX = /^0x(?:[0-9a-fA-F]{2})+$/
const MAX_UINT256 = 2n ** 256n - 1n
const DECIMAL_UINT = /^\d{1,78}$/
const BYTES32 = /^0x[0-9a-fA-F]{64}$/

/** A `0x` address in any letter case: clients send both checksummed and lowercase addresses. */
export function isEvmAddress(value: unknown): value is `0x${string}` {
  return typeof value === 'string' && ADDRESS.test(value)
}

/** The same address, whatever the letter case of either (EIP-55 checksums only change case). */
export function sameAddress(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase()
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
  return typeof value === 'string' && HEX.test(value)
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
