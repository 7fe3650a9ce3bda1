import { PinfoldError } from './errors.js'

/**
 * Eager checks of a factory's options, shared by every Pinfold package so that a bad option always
 * fails the same way: `INVALID_INPUT` at construction, with a message naming the package, the
 * factory and the option — `@pinfold/adapter-s3 createS3BlobStore: option `queueSize` must be a
 * positive integer, got 0`. Each checker returns the value, narrowed, so a factory reads
 * `const n = check.positiveInteger('n', options.n ?? 4)`.
 */
export interface OptionChecks {
  /** The coded error for `name`; `problem` reads after the name ("must be …"). */
  error(name: string, problem: string): PinfoldError
  /** Throws unless `ok`; the value is not echoed, so use it for secrets and clients. */
  require(name: string, ok: boolean, problem: string): void
  positiveInteger(name: string, value: unknown): number
  /** A positive integer, or `undefined` when unset (the callee picks the default). */
  optionalPositiveInteger(name: string, value: unknown): number | undefined
  nonNegativeInteger(name: string, value: unknown): number
  nonNegativeNumber(name: string, value: unknown): number
  /** An integer from `min` to `max`; `range` words the bounds for people ("from 5 MiB to 5 GiB"). */
  integerBetween(name: string, value: unknown, min: number, max: number, range?: string): number
  nonEmptyString(name: string, value: unknown): string
  /** An absolute http(s) URL. */
  httpUrl(name: string, value: unknown): URL
  /** An absolute http(s) URL, or `undefined` when the option is unset. */
  optionalHttpUrl(name: string, value: unknown): URL | undefined
  /** A DNS host name such as `gw.example.com` (no scheme, port or path), or `undefined` when unset. */
  optionalHostname(name: string, value: unknown): string | undefined
  /** A key of at least `minBytes` bytes (a string counts its UTF-8 bytes); never echoed. */
  secret<T extends string | Uint8Array>(name: string, value: T, minBytes: number): T
  /** A function, or `undefined` when unset. */
  optionalFunction<T extends (...args: never[]) => unknown>(name: string, value: T | undefined): T | undefined
}

/**
 * The checks of one factory. `noun` is what the checked names are: factory options by default,
 * `'variable'` for environment variables read by a configuration function.
 */
export function optionChecks(pkg: string, factory: string, noun: 'option' | 'variable' = 'option'): OptionChecks {
  const error = (name: string, problem: string) =>
    new PinfoldError('INVALID_INPUT', `${pkg} ${factory}: ${noun} \`${name}\` ${problem}`)
  const check = <T>(name: string, value: unknown, ok: (value: unknown) => boolean, expected: string): T => {
    if (!ok(value)) throw error(name, `must be ${expected}, got ${shown(value)}`)
    return value as T
  }
  const isInteger = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value)
  const httpUrl = (name: string, value: unknown): URL => {
    const url = typeof value === 'string' && URL.canParse(value) ? new URL(value) : undefined
    if (url?.protocol !== 'http:' && url?.protocol !== 'https:') {
      throw error(name, `must be an absolute http(s) URL, got ${shown(value)}`)
    }
    return url
  }

  const positiveInteger = (name: string, value: unknown): number =>
    check<number>(name, value, (v) => isInteger(v) && v > 0, 'a positive integer')

  return {
    error,
    require(name, ok, problem) {
      if (!ok) throw error(name, problem)
    },
    positiveInteger,
    optionalPositiveInteger: (name, value) => (value === undefined ? undefined : positiveInteger(name, value)),
    nonNegativeInteger: (name, value) => check(name, value, (v) => isInteger(v) && v >= 0, 'a non-negative integer'),
    nonNegativeNumber: (name, value) =>
      check(name, value, (v) => typeof v === 'number' && Number.isFinite(v) && v >= 0, 'a non-negative number'),
    integerBetween: (name, value, min, max, range = `from ${min} to ${max}`) =>
      check(name, value, (v) => isInteger(v) && v >= min && v <= max, `an integer ${range}`),
    nonEmptyString: (name, value) =>
      check(name, value, (v) => typeof v === 'string' && v.trim() !== '', 'a non-empty string'),
    httpUrl,
    optionalHttpUrl: (name, value) => (value === undefined ? undefined : httpUrl(name, value)),
    optionalHostname: (name, value) =>
      value === undefined
        ? undefined
        : check(name, value, (v) => typeof v === 'string' && HOSTNAME.test(v), 'a host name such as gw.example.com'),
    secret(name, value, minBytes) {
      const bytes = typeof value === 'string' ? new TextEncoder().encode(value) : value
      if (!(bytes instanceof Uint8Array) || bytes.length < minBytes) {
        throw error(name, `must be a string or bytes of at least ${minBytes} bytes`)
      }
      return value
    },
    optionalFunction: (name, value) =>
      value === undefined ? undefined : check(name, value, (v) => typeof v === 'function', 'a function'),
  }
}

/** Dot-separated DNS labels (letters, digits, inner hyphens); a trailing dot is allowed. */
const HOSTNAME = /^(?=.{1,253}\.?$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.?$/i

/** The offending value for the message: short, and never an object's contents. */
function shown(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value)
  if (typeof value === 'function') return 'a function'
  if (value === null || typeof value !== 'object') return String(value)
  return Array.isArray(value) ? 'an array' : 'an object'
}
