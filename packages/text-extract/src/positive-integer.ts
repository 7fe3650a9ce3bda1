import { PinfoldError } from '@pinfold/core'

/** `value` when it is a positive integer; else `INVALID_INPUT` naming the function and the option. */
export function positiveInteger(value: number, option: string, where: string): number {
  if (!Number.isInteger(value) || value <= 0)
    throw optionError(where, option, `must be a positive integer, got ${value}`)
  return value
}

export function optionError(where: string, option: string, problem: string): PinfoldError {
  return new PinfoldError('INVALID_INPUT', `@pinfold/text-extract ${where}: option ${option} ${problem}`)
}
