import { errorResponse } from '../responses.js'
import type { Middleware } from './middleware.js'

/**
 * Anything thrown becomes its `{"error": "…"}` answer (`errorResponse`), or the matched route's own
 * shape (`Route.answerError`); an unexpected failure (5xx) is also handed to `onError`, as the
 * client sees only a generic message.
 */
export function answerErrors(onError: ((error: unknown, request: Request) => void) | undefined): Middleware {
  return async (exchange, next) => {
    const { request } = exchange
    try {
      return await next()
    } catch (error) {
      const response = (exchange.answerError ?? errorResponse)(error)
      if (response.status >= 500) onError?.(error, request)
      return response
    }
  }
}
