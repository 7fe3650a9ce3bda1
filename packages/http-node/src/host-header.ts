import { PinfoldError } from '@pinfold/interface'

/**
 * `Host` as RFC 9110 allows it: a registered name (letters, digits, `-`, `.`, `_`), an IPv4
 * literal or a bracketed IPv6 literal, and an optional port. Nothing that could end the authority
 * of a URL (`/`, `?`, `#`, `@`, `\`): the URL the handler routes on is built from this value and
 * the request line, and a Host carrying a path once decided the route (issue 16 finding 11).
 */
const HOST = /^(?:[A-Za-z0-9_.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/

/** The Host value when it is well formed; `INVALID_INPUT` otherwise. */
export function checkedHost(value: string): string {
  if (!HOST.test(value)) throw new PinfoldError('INVALID_INPUT', 'malformed Host header')
  return value
}
