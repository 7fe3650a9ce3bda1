/**
 * The body of small responses this package built (JSON answers, small gateway files), by response.
 * The node bridge writes it in one piece with its Content-Length instead of reading the Response's
 * body stream chunk by chunk, and the body counters (metrics, gateway usage) count it at once
 * instead of wrapping it in another stream: for a small answer, passing the bytes through web
 * streams cost more than producing them. Everyone else still reads the Response's own body, which
 * holds the same bytes.
 */
const bodies = new WeakMap<Response, string | Uint8Array>()

export function rememberBody(response: Response, body: string | Uint8Array): Response {
  bodies.set(response, body)
  return response
}

/** The body of a response built by {@link rememberBody}, unless its body was read or replaced. */
export function knownBody(response: Response): string | Uint8Array | undefined {
  return response.bodyUsed ? undefined : bodies.get(response)
}
