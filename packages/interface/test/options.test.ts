import { describe, expect, it } from 'vitest'
import { optionChecks } from '../src/index.js'

const check = optionChecks('@pinfold/demo', 'createDemo')

/** `[what, call, expected message]`: each checker's refusal, worded the same way. */
const REFUSALS: [string, () => unknown, string][] = [
  ['positiveInteger 0', () => check.positiveInteger('n', 0), 'option `n` must be a positive integer, got 0'],
  ['positiveInteger 1.5', () => check.positiveInteger('n', 1.5), 'must be a positive integer, got 1.5'],
  ['positiveInteger "3"', () => check.positiveInteger('n', '3'), 'must be a positive integer, got "3"'],
  ['nonNegativeInteger -1', () => check.nonNegativeInteger('n', -1), 'must be a non-negative integer, got -1'],
  ['nonNegativeNumber NaN', () => check.nonNegativeNumber('n', Number.NaN), 'must be a non-negative number, got NaN'],
  ['integerBetween 11', () => check.integerBetween('n', 11, 1, 10), 'must be an integer from 1 to 10, got 11'],
  ['nonEmptyString " "', () => check.nonEmptyString('s', ' '), 'option `s` must be a non-empty string, got " "'],
  ['httpUrl relative', () => check.httpUrl('u', 'example.com'), 'must be an absolute http(s) URL, got "example.com"'],
  ['httpUrl ftp', () => check.optionalHttpUrl('u', 'ftp://example.com'), 'must be an absolute http(s) URL'],
  ['optionalHostname URL', () => check.optionalHostname('h', 'http://gw.example'), 'must be a host name'],
  ['optionalFunction object', () => check.optionalFunction('f', {} as never), 'must be a function, got an object'],
  ['secret short', () => check.secret('key', 'short', 32), 'option `key` must be a string or bytes of at least 32'],
  ['require false', () => check.require('x', false, 'is required'), 'option `x` is required'],
]

describe('optionChecks', () => {
  it.each(REFUSALS)('optionChecks - %s is INVALID_INPUT naming package, factory and option', (_, call, message) => {
    expect(call).toThrow(
      expect.objectContaining({
        code: 'INVALID_INPUT',
        message: expect.stringContaining('@pinfold/demo createDemo: '),
      }),
    )
    expect(call).toThrow(message)
  })

  it('optionChecks - a valid value comes back; an unset optional one is undefined', () => {
    expect(check.positiveInteger('n', 3)).toBe(3)
    expect(check.httpUrl('u', 'https://files.example.com/p').pathname).toBe('/p')
    expect(check.optionalHttpUrl('u', undefined)).toBeUndefined()
    expect(check.optionalHostname('h', 'GW.example.com')).toBe('GW.example.com')
  })

  it('optionChecks - a secret is never echoed; environment variables are called variables', () => {
    expect(() => check.secret('key', 'hunter2', 32)).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('hunter2') }),
    )
    expect(() => optionChecks('@pinfold/demo', 'readDemo', 'variable').positiveInteger('PORT', -1)).toThrow(
      '@pinfold/demo readDemo: variable `PORT` must be a positive integer, got -1',
    )
  })
})
