import { request as httpRequest } from 'node:http'

export interface RawAnswer {
  status: number
  body: string
  headers: Record<string, string | string[] | undefined>
}

/**
 * A request with a Host header of the test's choosing (fetch does not let a caller set it) to the
 * server listening at `url`.
 */
export function requestWithHost(
  url: string,
  host: string,
  path: string,
  init: { method?: string; headers?: Record<string, string> } = {},
): Promise<RawAnswer> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: hostname, port, path, method: init.method ?? 'GET', headers: { ...init.headers, host } },
      (res) => {
        let body = ''
        res.setEncoding('latin1')
        res.on('data', (chunk: string) => {
          body += chunk
        })
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }))
      },
    )
    req.on('error', reject)
    req.end()
  })
}
