import { expect } from 'vitest'

/** The INVALID_INPUT a factory throws for a bad option, naming its package, itself and the option. */
export const invalidOption = (pkg: string, factory: string, noun: string, option: string) =>
  expect.objectContaining({
    code: 'INVALID_INPUT',
    message: expect.stringContaining(`${pkg} ${factory}: ${noun} \`${option}\``),
  })
