import type { KeyvalueCondition } from '@pinfold/interface'

/**
 * The legacy API's keyvalue conditions over one stored value, exactly as the SQL adapter's
 * `keyvalue-conditions.ts` evaluates them (the contract is on `KeyvalueCondition`).
 */

/** A decimal number as PostgreSQL's `numeric` reads it. */
const DECIMAL = /^-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?$/

/** Code point order, as PostgreSQL's `COLLATE "C"` over UTF-8 compares (`<` on strings compares UTF-16 units). */
function compareText(a: string, b: string): number {
  const left = Array.from(a, (c) => c.codePointAt(0)!)
  const right = Array.from(b, (c) => c.codePointAt(0)!)
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    if (left[i] !== right[i]) return left[i]! - right[i]!
  }
  return left.length - right.length
}

/** The stored value against `bound`: a number or text comparison, or `undefined` when they do not compare. */
function compare(stored: string, bound: string | number): number | undefined {
  if (typeof bound === 'string') return compareText(stored, bound)
  if (!DECIMAL.test(stored)) return undefined
  return Number(stored) - bound
}

/** SQL's LIKE: `%` any run, `_` one character, `\` takes the next character literally. */
function likePattern(pattern: string, ignoreCase: boolean): RegExp {
  let source = ''
  const chars = Array.from(pattern)
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i]!
    if (char === '\\' && i + 1 < chars.length) source += escapeRegExp(chars[++i]!)
    else if (char === '%') source += '.*'
    else if (char === '_') source += '.'
    else source += escapeRegExp(char)
  }
  return new RegExp(`^${source}$`, ignoreCase ? 'isu' : 'su')
}

const escapeRegExp = (char: string) => char.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')

export function containsIgnoringCase(text: string, part: string): boolean {
  return text.toLowerCase().includes(part.toLowerCase())
}

export function holds(condition: KeyvalueCondition, stored: string | undefined): boolean {
  if (stored === undefined) return false
  const { op, value, secondValue } = condition
  switch (op) {
    case 'like':
    case 'notLike':
    case 'iLike':
    case 'notILike': {
      const matches = likePattern(String(value), op === 'iLike' || op === 'notILike').test(stored)
      return op === 'like' || op === 'iLike' ? matches : !matches
    }
    case 'between':
    case 'notBetween': {
      const low = compare(stored, value)
      const high = compare(stored, secondValue ?? value)
      if (low === undefined || high === undefined) return false
      const inside = low >= 0 && high <= 0
      return op === 'between' ? inside : !inside
    }
    default: {
      const order = compare(stored, value)
      if (order === undefined) return false
      if (op === 'eq') return order === 0
      if (op === 'ne') return order !== 0
      if (op === 'gt') return order > 0
      if (op === 'gte') return order >= 0
      if (op === 'lt') return order < 0
      return order <= 0
    }
  }
}
