import type { CallOptions } from '../call-options.js'

/** One signed POST of a webhook delivery. */
export interface WebhookPost {
  url: string
  headers: Record<string, string>
  body: string
  /** The whole exchange (connect, send, answer) ends by then. */
  timeoutMs: number
  /** The answer's body is read to at most this many bytes, then dropped. */
  maxResponseBytes: number
}

/**
 * What a post came to: an HTTP answer; a refusal before any connection (the host resolved to an
 * address the operator does not allow: retrying will not help); or no answer (unresolvable,
 * refused connection, timeout: worth a retry).
 */
export type WebhookPostResult =
  | { kind: 'answered'; status: number }
  | { kind: 'refused'; reason: string }
  | { kind: 'unreachable'; reason: string }

/** What a registration check found: a refused address, or nothing against the URL (now). */
export type WebhookUrlCheck =
  | { kind: 'refused'; reason: string }
  | { kind: 'allowed' }
  | { kind: 'unresolved'; reason: string }

/**
 * How webhook deliveries leave the process (DESIGN rule 17): the URL's host is resolved, every
 * address it resolves to is checked against the operator's policy, and the connection goes to a
 * checked address, never to the name again (a second resolution could answer otherwise).
 */
export interface WebhookTransport {
  /** Resolves the URL's host and checks every address, without connecting. */
  check(url: string, options?: CallOptions): Promise<WebhookUrlCheck>
  /** Posts after the same check, to the address it checked; never throws for the network's failures. */
  post(request: WebhookPost, options?: CallOptions): Promise<WebhookPostResult>
}
