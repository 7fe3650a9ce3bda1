/**
 * The text of JSON responses this package built, by response. The node bridge writes it in one
 * piece with a Content-Length instead of reading the Response's body stream chunk by chunk with
 * chunked encoding (for a small JSON answer, reading the stream cost more than producing it).
 * Everyone else still reads the Response's own body, which holds the same text.
 */
const texts = new WeakMap<Response, string>()

export function rememberText(response: Response, text: string): Response {
  texts.set(response, text)
  return response
}

/** The text of a response built by {@link rememberText}, unless its body was read or replaced. */
export function knownText(response: Response): string | undefined {
  return response.bodyUsed ? undefined : texts.get(response)
}
