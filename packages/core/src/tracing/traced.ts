import { SpanStatusCode, type Tracer } from '@opentelemetry/api'
import { isPinfoldError } from '@pinfold/interface'

/**
 * `target` with every method call in a span named `{prefix}.{method}`, a child of the span active
 * when it is called (the request's, or the service operation's for a store call) and the parent of
 * the spans started inside it. A call returning a promise ends its span when the promise settles.
 * Only built when tracing is configured: without a tracer nothing is wrapped, so tracing off costs
 * nothing at all.
 */
export function traced<T extends object>(target: T, prefix: string, tracer: Tracer): T {
  const wrappers = new Map<string, { original: unknown; wrapper: unknown }>()
  return new Proxy(target, {
    get(object, key) {
      const value: unknown = Reflect.get(object, key, object)
      if (typeof value !== 'function' || typeof key !== 'string') return value
      const known = wrappers.get(key)
      if (known?.original === value) return known.wrapper
      const method = value as (...args: unknown[]) => unknown
      const wrapper = (...args: unknown[]) => inSpan(tracer, `${prefix}.${key}`, () => method.apply(object, args))
      wrappers.set(key, { original: value, wrapper })
      return wrapper
    },
  })
}

/**
 * Each part of an object of parts traced under its name: the record store's as
 * `records.{part}.{method}`, the service's groups (no prefix) as `{group}.{operation}`.
 */
export function tracedParts<T extends object>(parts: T, prefix: string, tracer: Tracer): T {
  const entries = Object.keys(parts).map((key) => {
    const part = (parts as Record<string, unknown>)[key]
    const name = prefix ? `${prefix}.${key}` : key
    return [key, typeof part === 'object' && part !== null ? traced(part, name, tracer) : part]
  })
  return Object.fromEntries(entries) as T
}

function inSpan<R>(tracer: Tracer, name: string, call: () => R): R {
  return tracer.startActiveSpan(name, (span) => {
    const failed = (error: unknown) => {
      span.setStatus({ code: SpanStatusCode.ERROR, message: isPinfoldError(error) ? error.code : 'error' })
      if (error instanceof Error) span.recordException(error)
      span.end()
    }
    let result: R
    try {
      result = call()
    } catch (error) {
      failed(error)
      throw error
    }
    if (!(result instanceof Promise)) {
      span.end()
      return result
    }
    return result.then(
      (value) => {
        span.end()
        return value
      },
      (error: unknown) => {
        failed(error)
        throw error
      },
    ) as R
  })
}
