import { invalid } from '@pinfold/core'
import { GATEWAY_SECURITY_HEADERS } from './responses.js'

/** Characters a URL path may carry as they are; `%` too, so what the URI escaped stays escaped. */
const UNSAFE_IN_PATH = /[^A-Za-z0-9\-._~!$&'()*+,;=:@/%?#]/gu

/**
 * `/ipfs/?uri=ipfs://{cid}/{path}`: what a browser opens for an `ipfs://` link once the gateway is
 * registered with `navigator.registerProtocolHandler` (path-gateway practice, Kubo's); a 301 to the
 * content path on this gateway (`ipns://` to `/ipns/…`). Any other value is `INVALID_INPUT`.
 */
export function protocolHandlerRedirect(uri: string): Response {
  const match = /^(ipfs|ipns):\/\/([^/?#]+)(.*)$/i.exec(uri)
  if (!match) throw invalid('uri must be ipfs://{cid}[/path] or ipns://{name}[/path]')
  const [, scheme, root, rest] = match as unknown as [string, string, string, string]
  const location = `/${scheme.toLowerCase()}/${root}${rest}`.replace(UNSAFE_IN_PATH, encodeURIComponent)
  return new Response(null, { status: 301, headers: { ...GATEWAY_SECURITY_HEADERS, location } })
}
