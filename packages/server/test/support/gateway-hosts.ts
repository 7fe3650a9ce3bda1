import { request as httpRequest } from 'node:http'

/**
 * Sends the global `fetch`'s requests for any host under `domain` to the server at `serverUrl`,
 * with that host as the Host header, as wildcard DNS for `*.{domain}` would (fetch can neither set
 * Host nor resolve a made-up name). Any scheme: the SDK writes `https://` before every gateway.
 * Returns the function that restores the real fetch.
 */
export function routeHostsTo(serverUrl: string, domain: string): () => void {
  const realFetch = globalThis.fetch
  const { hostname, port } = new URL(serverUrl)
  globalThis.fetch = async (input, init) => {
    const request = new Request(input, init)
    const url = new URL(request.url)
    if (!url.hostname.endsWith(`.${domain}`)) return realFetch(input, init)
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined
    const answer = await new Promise<Response>((resolve, reject) => {
      const headers = { ...Object.fromEntries(request.headers), host: url.host }
      const outgoing = httpRequest(
        { host: hostname, port, path: `${url.pathname}${url.search}`, method: request.method, headers },
        (res) => {
          const chunks: Buffer[] = []
          res.on('data', (chunk: Buffer) => chunks.push(chunk))
          res.on('error', reject)
          res.on('end', () => {
            const answer = new Headers()
            for (const [name, value] of Object.entries(res.headers)) {
              if (value !== undefined) answer.set(name, Array.isArray(value) ? value.join(', ') : value)
            }
            const status = res.statusCode ?? 502
            const bodyless = status === 204 || status === 304 || request.method === 'HEAD'
            resolve(new Response(bodyless ? null : Buffer.concat(chunks), { status, headers: answer }))
          })
        },
      )
      outgoing.on('error', reject)
      outgoing.end(body)
    })
    // as fetch does: a GET follows a redirect (on S3 storage a link redirects to a presigned URL)
    const location = answer.headers.get('location')
    if (
      location &&
      answer.status >= 300 &&
      answer.status < 400 &&
      request.method === 'GET' &&
      request.redirect === 'follow'
    ) {
      return globalThis.fetch(new URL(location, url))
    }
    return answer
  }
  return () => {
    globalThis.fetch = realFetch
  }
}
