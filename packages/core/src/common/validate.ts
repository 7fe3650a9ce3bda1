import { type CidVersion, invalid, isCidVersion, isNetwork, type KeyValues, type Network } from '@pinfold/interface'

export const LIMITS = {
  nameChars: 1024,
  keyvaluePairs: 100,
  keyChars: 255,
  valueChars: 2048,
} as const

export function validateName(value: unknown, field = 'name'): string {
  if (typeof value !== 'string' || value.trim() === '') throw invalid(`${field} must be a non-empty string`)
  if (value.length > LIMITS.nameChars) throw invalid(`${field} must be at most ${LIMITS.nameChars} characters`)
  return value
}

/** Keyvalues as stored: string values; numbers and booleans are accepted and kept as their text. */
export function validateKeyvalues(value: unknown): KeyValues {
  const out: KeyValues = {}
  for (const [key, raw] of keyvalueEntries(value)) {
    if (raw === null) throw invalid(`keyvalues.${key} must not be null`)
    out[key] = raw
  }
  return out
}

/** Like {@link validateKeyvalues}, but a `null` value means "remove this key". */
export function validateKeyvaluePatch(value: unknown): Record<string, string | null> {
  return Object.fromEntries(keyvalueEntries(value))
}

function keyvalueEntries(value: unknown): [string, string | null][] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalid('keyvalues must be a JSON object of string values')
  }
  const entries = Object.entries(value)
  if (entries.length > LIMITS.keyvaluePairs) throw invalid(`keyvalues may hold at most ${LIMITS.keyvaluePairs} pairs`)
  return entries.map(([key, raw]) => {
    if (key === '' || key.length > LIMITS.keyChars)
      throw invalid(`keyvalues keys must have 1 to ${LIMITS.keyChars} characters`)
    if (raw === null) return [key, null]
    if (typeof raw !== 'string' && typeof raw !== 'number' && typeof raw !== 'boolean') {
      throw invalid(`keyvalues.${key} must be a string, number or boolean`)
    }
    const text = String(raw)
    if (text.length > LIMITS.valueChars)
      throw invalid(`keyvalues.${key} must be at most ${LIMITS.valueChars} characters`)
    return [key, text]
  })
}

/** A future expiry moment, or `null` to clear it. */
export function validateExpiry(value: Date | null, now: Date): Date | null {
  if (value === null) return null
  if (Number.isNaN(value.getTime())) throw invalid('expires_at must be a unix timestamp in seconds')
  if (value.getTime() <= now.getTime()) throw invalid('expires_at must be in the future')
  return value
}

/** Embedders call core without the HTTP layer's parsing, so options typed as unions are checked here too. */
export function validateNetwork(value: unknown): Network {
  if (!isNetwork(value)) throw invalid('network must be "public" or "private"')
  return value
}

export function validateCidVersion(value: unknown): CidVersion {
  if (!isCidVersion(value)) throw invalid('cid_version must be "v0", "v1" or "unixfs-v1-2025"')
  return value
}
