import { type Actor, createTokenBuckets, PinfoldError, type TokenBucketRule } from '@pinfold/core'
import { stripBasePath } from '../request-url.js'
import type { Middleware } from './middleware.js'

/** At most `limit` requests per `windowMs`, refilled continuously (a token bucket of `limit`). */
export type RateLimitRule = TokenBucketRule

export interface RateLimitOptions {
  /**
   * Budget of each token holder: the tenant and user a verified token names. Every token of one user,
   * and every spelling of one token, draws on the same budget.
   */
  perToken?: RateLimitRule | undefined
  /** Budget of each client address, for every request including public and gateway ones. */
  perIp?: RateLimitRule | undefined
  /** Milliseconds clock; tests inject one. */
  now?: (() => number) | undefined
}

/**
 * In-memory token buckets per client address and per token holder (`createTokenBuckets`), in each
 * process: behind a load balancer with N processes a client gets up to N times the budget (see
 * SECURITY.md). A tenant's requests-per-minute quota is the one limit held across processes.
 */
export interface RateLimiter {
  /** Throws `RATE_LIMITED` (429 with `Retry-After`) when the address has no budget left. */
  checkAddress(address: string | undefined): void
  /** Throws `RATE_LIMITED` when the holder of a verified token has no budget left. */
  checkActor(actor: Actor): void
}

export function createRateLimiter(options: RateLimitOptions | undefined): RateLimiter {
  const now = options?.now ?? Date.now
  const perIp = options?.perIp ? createTokenBuckets(options.perIp, now, 'rateLimit.perIp') : undefined
  const perToken = options?.perToken ? createTokenBuckets(options.perToken, now, 'rateLimit.perToken') : undefined
  const refuse = (waitMs: number, what: string) => {
    const seconds = Math.max(1, Math.ceil(waitMs / 1000))
    return new PinfoldError('RATE_LIMITED', `too many requests from this ${what}; retry in ${seconds} s`, {
      details: { retryAfterSeconds: seconds },
    })
  }
  return {
    checkAddress(address) {
      if (!perIp || address === undefined) return
      const wait = perIp.take(address)
      if (wait !== undefined) throw refuse(wait, 'address')
    },
    checkActor(actor) {
      if (!perToken) return
      // Keyed on who the token names, never on its text: a JWT has many spellings (the last
      // base64url character of a signature has unused bits) and a user may hold many tokens.
      const wait = perToken.take(JSON.stringify([actor.tenantId, actor.userId]))
      if (wait !== undefined) throw refuse(wait, 'token')
    },
  }
}

/** Paths an orchestrator probes, often from one address: never rate limited into a restart. */
const HEALTH_PATHS = new Set(['/healthz', '/readyz'])

/** Takes each request from its client address's budget (`perIp`), health probes excepted. */
export function limitAddresses(
  limiter: RateLimiter,
  clientIp: (request: Request) => string | undefined,
  basePath: string,
): Middleware {
  return async ({ request, url }, next) => {
    if (!HEALTH_PATHS.has(stripBasePath(url.pathname, basePath) ?? '')) limiter.checkAddress(clientIp(request))
    return next()
  }
}

const addresses = new WeakMap<Request, string>()

/**
 * The network address of the client that sent `request`, when the bridge that built it knew one
 * (`createNodeHandler` records the socket's address; a header would be spoofable).
 */
export function clientAddress(request: Request): string | undefined {
  return addresses.get(request)
}

/** Records the client address of a request built by a bridge. */
export function setClientAddress(request: Request, address: string | undefined): void {
  if (address) addresses.set(request, address)
}
