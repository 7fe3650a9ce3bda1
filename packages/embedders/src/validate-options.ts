import { PinfoldError } from '@pinfold/core'

/** Eager option checks whose messages name the package, the factory and the option. */
export function positiveInteger(value: unknown, factory: string, option: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0) {
    throw optionError(factory, option, `must be a positive integer, got ${String(value)}`)
  }
  return value
}

export function nonNegativeInteger(value: unknown, factory: string, option: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw optionError(factory, option, `must be a non-negative integer, got ${String(value)}`)
  }
  return value
}

export function nonNegativeNumber(value: unknown, factory: string, option: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw optionError(factory, option, `must be a non-negative number, got ${String(value)}`)
  }
  return value
}

export function nonEmptyString(value: unknown, factory: string, option: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw optionError(factory, option, 'must be a non-empty string')
  return value
}

export function optionError(factory: string, option: string, problem: string): PinfoldError {
  return new PinfoldError('INVALID_INPUT', `@pinfold/embedders ${factory}: option ${option} ${problem}`)
}
