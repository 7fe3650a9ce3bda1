/** A request on its way through the middleware list. */
export interface Exchange {
  request: Request
  /** The request's URL, parsed once. */
  url: URL
  /** What the request log may say about the request, filled in as routing learns it. */
  seen: Seen
  /** How the matched route writes its failures (`Route.answerError`), once routing knows. */
  answerError?: ((error: unknown) => Response) | undefined
}

export interface Seen {
  /** The matched route pattern, `gateway`, or null while nothing matched. */
  route: string | null
  /** The authenticated caller's tenant. */
  tenant?: string
  /** The request id (`X-Request-Id`) the request log writes and the answer carries. */
  requestId?: string
}

/**
 * One cross-cutting concern (CORS, the request log, rate limits, …): it does its part before the
 * rest of the list runs (`next()`), after it, or answers instead of it.
 */
export type Middleware = (exchange: Exchange, next: () => Promise<Response>) => Promise<Response>

/** The list as one function, the first middleware outermost, `last` (the route) innermost. */
export function compose(
  middleware: readonly Middleware[],
  last: (exchange: Exchange) => Promise<Response>,
): (exchange: Exchange) => Promise<Response> {
  return (exchange) => {
    const run = (at: number): Promise<Response> => {
      const current = middleware[at]
      return current ? current(exchange, () => run(at + 1)) : last(exchange)
    }
    return run(0)
  }
}
