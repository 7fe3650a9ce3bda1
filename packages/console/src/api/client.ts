/** A failed API call: the server's `{"error": "…"}` and the status. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }

  /** The server has no such route: an optional feature this server does not offer. */
  get isMissingRoute(): boolean {
    return this.status === 404 && this.message === 'no such route'
  }
}

export type Query = Record<string, string | number | boolean | undefined | null>

export interface Api {
  /** The API's base URL, with a trailing slash (the console is served at `{base}console/`). */
  readonly base: string
  readonly token: string
  get<T>(path: string, query?: Query): Promise<T>
  send<T>(method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<T>
  /** The absolute URL of an API path. */
  url(path: string, query?: Query): string
}

/** The API the console was served by: `/console/` sits right below the API's base path. */
export function apiBaseOfPage(location: Location): string {
  return new URL('../', new URL('./', location.href)).href
}

/** `onUnauthorized`: the token was refused (expired, revoked), so the session is over. */
export function createApi(base: string, token: string, onUnauthorized?: (message: string) => void): Api {
  const url = (path: string, query: Query = {}) => {
    const target = new URL(path.replace(/^\//, ''), base)
    for (const [name, value] of Object.entries(query)) {
      if (value !== undefined && value !== null && value !== '') target.searchParams.append(name, String(value))
    }
    return target.href
  }
  const call = async <T>(method: string, path: string, query?: Query, body?: unknown): Promise<T> => {
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json' }
    if (body !== undefined) headers['content-type'] = 'application/json'
    const response = await fetch(url(path, query), {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: 'no-store',
    })
    const text = await response.text()
    const parsed = text ? parseJson(text) : undefined
    if (!response.ok) {
      const message = isErrorBody(parsed) ? parsed.error : `${response.status} ${response.statusText}`.trim()
      if (response.status === 401) onUnauthorized?.(message)
      throw new ApiError(response.status, message)
    }
    return parsed as T
  }
  return {
    base,
    token,
    url,
    get: (path, query) => call('GET', path, query),
    send: (method, path, body) => call(method, path, undefined, body),
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

function isErrorBody(value: unknown): value is { error: string } {
  return typeof value === 'object' && value !== null && typeof (value as { error?: unknown }).error === 'string'
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
