import { CliError } from './cli-error.js'
import type { Connection } from './connection.js'

/** The few requests the CLI makes, with the token attached and the server's error turned into a CliError. */
export interface ApiClient {
  readonly connection: Connection
  /** A request to `path` (absolute, from the server root) that must answer 2xx (or 404 when allowed). */
  request(path: string, init?: RequestOptions): Promise<Response>
  /** The same, reading the answer as JSON. */
  json<T>(path: string, init?: RequestInit): Promise<T>
}

export interface RequestOptions extends RequestInit {
  /** Answer a 404 instead of failing: the caller looks elsewhere (the other network). */
  allowNotFound?: boolean
}

export function createApiClient(connection: Connection): ApiClient {
  const request = async (path: string, { allowNotFound, ...init }: RequestOptions = {}): Promise<Response> => {
    const headers = new Headers(init.headers)
    headers.set('authorization', `Bearer ${connection.token}`)
    let res: Response
    try {
      res = await fetch(`${connection.url}${path}`, { ...init, headers })
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause
      throw new CliError(`cannot reach ${connection.url}: ${cause?.code ?? cause?.message ?? (error as Error).message}`)
    }
    if (allowNotFound && res.status === 404) return res
    if (!res.ok) throw new CliError(`${init.method ?? 'GET'} ${path.split('?')[0]}: ${await describeFailure(res)}`)
    return res
  }
  return {
    connection,
    request,
    json: async <T>(path: string, init?: RequestInit) => (await (await request(path, init)).json()) as T,
  }
}

/** The server's `{"error": "…"}` when it sent one, else the status line. */
async function describeFailure(res: Response): Promise<string> {
  const text = await res.text().catch(() => '')
  try {
    const body = JSON.parse(text) as { error?: unknown }
    if (typeof body.error === 'string') return `${res.status} ${body.error}`
  } catch {
    // not JSON: fall through to the status
  }
  return `${res.status} ${res.statusText || 'request failed'}`
}
