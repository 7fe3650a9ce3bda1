import { utf8Length } from './bytes.js'
import { knownBody } from './response-body.js'

/** What a counted body reports, in bytes handed on so far. */
export interface BodyCounter {
  /** After each chunk is read and before it is handed on to the client. */
  chunk?(bytes: number): void
  /** Once: when the body ends, fails, or the client goes away. */
  end(bytes: number): void
}

/**
 * The response with its body counted as the client reads it (gateway usage, metrics). The source is
 * read only as the client reads: no chunk is held here. A small body already held whole
 * (`rememberBody`) goes out in one write: it is counted now and the response is returned as it is.
 */
export function countBody(response: Response, counter: BodyCounter): Response {
  const known = knownBody(response)
  if (known !== undefined) {
    const bytes = typeof known === 'string' ? utf8Length(known) : known.byteLength
    counter.chunk?.(bytes)
    counter.end(bytes)
    return response
  }
  const reader = response.body!.getReader()
  let bytes = 0
  let ended = false
  const end = () => {
    if (!ended) counter.end(bytes)
    ended = true
  }
  const counted = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const { value, done } = await reader.read()
          if (done) {
            end()
            controller.close()
            return
          }
          bytes += value.byteLength
          counter.chunk?.(bytes)
          controller.enqueue(value)
        } catch (error) {
          end()
          controller.error(error)
        }
      },
      cancel(reason) {
        end()
        return reader.cancel(reason)
      },
    },
    { highWaterMark: 0 },
  )
  return new Response(counted, { status: response.status, statusText: response.statusText, headers: response.headers })
}
