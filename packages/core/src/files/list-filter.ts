import { type FileFilter, invalid, KEYVALUE_OPERATORS, type KeyvalueCondition } from '@pinfold/interface'
import { LIMITS } from '../common/validate.js'

/** Conditions one listing may put on keyvalues: each is one more predicate per file the store reads. */
export const MAX_KEYVALUE_CONDITIONS = 20

const LIKE_OPERATORS: readonly string[] = ['like', 'notLike', 'iLike', 'notILike']

/**
 * Checks the filters of a file listing that callers (the legacy `pinList`) build from untrusted
 * input, so every store receives only what it can evaluate: a malformed condition is an
 * `INVALID_INPUT` here, never a database error.
 */
export function validateFileFilter(filter: FileFilter): FileFilter {
  text(filter.nameContains, 'name filter', LIMITS.nameChars)
  text(filter.cidContains, 'CID filter', LIMITS.nameChars)
  moment(filter.createdFrom, 'pinStart')
  moment(filter.createdTo, 'pinEnd')
  byteCount(filter.sizeMin, 'pinSizeMin')
  byteCount(filter.sizeMax, 'pinSizeMax')
  const conditions = filter.keyvalueConditions ?? []
  if (conditions.length > MAX_KEYVALUE_CONDITIONS) {
    throw invalid(`at most ${MAX_KEYVALUE_CONDITIONS} keyvalue conditions`)
  }
  conditions.forEach(checkCondition)
  return filter
}

function checkCondition({ key, op, value, secondValue }: KeyvalueCondition) {
  if (typeof key !== 'string' || key === '' || key.length > LIMITS.keyChars) {
    throw invalid(`a keyvalue condition's key must be 1 to ${LIMITS.keyChars} characters`)
  }
  if (!(KEYVALUE_OPERATORS as readonly string[]).includes(op)) {
    throw invalid(`keyvalues.${key}: op must be one of ${KEYVALUE_OPERATORS.join(', ')}`)
  }
  operand(value, key)
  if (op === 'between' || op === 'notBetween') {
    if (secondValue === undefined) throw invalid(`keyvalues.${key}: ${op} needs secondValue`)
    operand(secondValue, key)
    if (typeof secondValue !== typeof value) {
      throw invalid(`keyvalues.${key}: value and secondValue must both be numbers or both strings`)
    }
  }
  // SQL refuses a pattern ending in its escape character; so does this, for every store
  if (LIKE_OPERATORS.includes(op) && /(^|[^\\])(\\\\)*\\$/.test(String(value))) {
    throw invalid(`keyvalues.${key}: a ${op} pattern must not end with an unescaped backslash`)
  }
}

function operand(value: unknown, key: string) {
  if (typeof value === 'number' ? !Number.isFinite(value) : typeof value !== 'string') {
    throw invalid(`keyvalues.${key}: value must be a string or a finite number`)
  }
  if (typeof value === 'string' && value.length > LIMITS.valueChars) {
    throw invalid(`keyvalues.${key}: value must be at most ${LIMITS.valueChars} characters`)
  }
}

function text(value: string | undefined, field: string, max: number) {
  if (value !== undefined && (typeof value !== 'string' || value.length > max)) {
    throw invalid(`${field} must be a string of at most ${max} characters`)
  }
}

function moment(value: Date | undefined, field: string) {
  // years 1 to 9999: what every store can hold (PostgreSQL refuses JavaScript's larger years)
  const year = value instanceof Date ? value.getUTCFullYear() : Number.NaN
  if (value !== undefined && !(year >= 1 && year <= 9999)) {
    throw invalid(`${field} must be an ISO 8601 date from year 1 to 9999`)
  }
}

function byteCount(value: number | undefined, field: string) {
  if (value !== undefined && (!Number.isSafeInteger(value) || value < 0)) {
    throw invalid(`${field} must be a non-negative integer`)
  }
}
