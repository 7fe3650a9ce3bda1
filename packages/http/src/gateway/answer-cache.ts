import type { FileService } from '@pinfold/core'
import type { Exchange } from '../middleware/middleware.js'
import { gatewayFormat, type HttpObserver } from '../middleware/observe.js'
import type { RateLimiter } from '../middleware/rate-limit.js'
import { type RequestLogger, requestIdFrom } from '../middleware/request-log.js'
import { knownBody } from '../response-body.js'
import {
  bodyBytes,
  type KeptAnswerSettings,
  KeptAnswerStore,
  type KeptAnswers,
  keepingAllowed,
  keptAnswerKeyOf,
} from './kept-answers.js'

export interface AnswerCache {
  /** For the node bridge (`createNodeHandler`'s `keptAnswers`). */
  answers: KeptAnswers
  /** The stamp to keep the answer to `request` with, read before the full path runs; `undefined`: not keepable. */
  before(request: Request): { key: string; stamp: string } | undefined
  /** Keeps the full path's answer when it may be kept and nothing changed while it was made. */
  after(started: { key: string; stamp: string }, exchange: Exchange, fixedHost: boolean, response: Response): void
}

export interface AnswerCacheContext {
  service: FileService
  settings: KeptAnswerSettings
  limiter: RateLimiter
  observer: HttpObserver | undefined
  logger: RequestLogger | undefined
}

/** The status codes kept: a whole answer and the `If-None-Match` answer to it. */
const KEPT_STATUSES = new Set([200, 304])

/**
 * The answer cache of one fetch handler (`kept-answers.ts` says what is kept and for how long).
 * A kept answer is counted as the full path counts it: the request log's line, the request and
 * gateway metrics (format, bytes, time to first byte), the per-address rate limit. Only public
 * answers are kept, which no tenant's gateway usage counts.
 */
export function createAnswerCache({ service, settings, limiter, observer, logger }: AnswerCacheContext): AnswerCache {
  const store = new KeptAnswerStore(settings)

  return {
    answers: {
      answer(key, { requestId, address }) {
        const current = service.gateway.answerStamp()
        if (!current) return undefined
        const entry = store.get(key, current.stamp, current.now)
        if (!entry) return undefined
        const started = performance.now()
        try {
          limiter.checkAddress(address)
        } catch {
          return undefined // the full path answers the refusal (429), as it always has
        }
        const id = requestIdFrom(requestId)
        const method = key.startsWith('HEAD') ? 'HEAD' : 'GET'
        const { status, body } = entry
        if (observer) {
          const seconds = (performance.now() - started) / 1000
          observer.answered({ method, route: 'gateway', status, seconds })
          const bytes = bodyBytes(body)
          observer.gatewayStarted()({
            format: entry.format,
            status,
            bytes,
            firstByteSeconds: body === undefined ? undefined : seconds,
            seconds,
          })
        }
        logger?.info({
          request_id: id,
          method,
          route: 'gateway',
          status,
          duration_ms: Math.round((performance.now() - started) * 10) / 10,
        })
        return { status, headers: [...entry.before, 'x-request-id', id, ...entry.after], body }
      },
    },

    before(request) {
      const key = keptAnswerKeyOf(request)
      const stamp = key === undefined ? undefined : service.gateway.answerStamp()?.stamp
      return key === undefined || stamp === undefined ? undefined : { key, stamp }
    },

    after({ key, stamp }, { request, url, seen }, fixedHost, response) {
      const allowed = keepingAllowed(request)
      if (!allowed || !fixedHost || seen.route !== 'gateway' || !KEPT_STATUSES.has(response.status)) return
      const body = response.body === null ? undefined : knownBody(response)
      if (response.body !== null && body === undefined) return // streamed: larger than any kept body
      if (bodyBytes(body) > settings.maxBodyBytes) return
      const current = service.gateway.answerStamp()
      // a change while the answer was made: it may be built on the old facts
      if (current?.stamp !== stamp) return
      const before: string[] = []
      const after: string[] = []
      for (const [name, value] of response.headers) {
        if (name === 'x-request-id') continue
        if (name === 'set-cookie') return
        ;(name < 'x-request-id' ? before : after).push(name, value)
      }
      const expires = Math.min(allowed.until ?? Number.POSITIVE_INFINITY, current.now + settings.maxAgeMs)
      store.set(key, {
        status: response.status,
        before,
        after,
        body,
        format: gatewayFormat(request, url),
        stamp,
        expires,
      })
    },
  }
}
