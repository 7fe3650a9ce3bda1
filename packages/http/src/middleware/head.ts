import type { Middleware } from './middleware.js'

/**
 * `HEAD` answers as `GET` would, without the body: handlers may serve both alike, and this drops
 * what they sent last, once every header is set.
 */
export const headWithoutBody: Middleware = async ({ request }, next) => {
  const response = await next()
  if (request.method !== 'HEAD') return response
  return new Response(null, { status: response.status, headers: response.headers })
}
