import { type ByteRange, PinfoldError } from '@pinfold/interface'

/** Which bytes of a GetObject answer's body are the range asked for: skip `skip`, then keep `take` (all when undefined). */
export interface RangeWindow {
  skip: number
  take: number | undefined
}

const CONTENT_RANGE = /^bytes (\d+)-(\d+)\/(\d+|\*)$/

/**
 * The window of a ranged GetObject answer that holds the range asked for. S3 sends exactly that
 * range, but S3-compatible servers and proxies send more: s3rver reads `bytes=0-0` as "from 0 to
 * the end", and one that ignores `Range` answers 200 with the whole object. The answer's
 * `Content-Range` (none: the whole object) says where its bytes start, so the store skips to the
 * offset and stops after the length, and a reader never gets a byte it did not ask for. An
 * object of 0 bytes has none to send, whatever the answer claims (s3rver answers a range on it
 * with `bytes 0-0/0` and one byte).
 */
export function rangeWindow(
  range: ByteRange,
  answer: { ContentRange?: string | undefined; ContentLength?: number | undefined },
  key: string,
): RangeWindow {
  const contentRange = answer.ContentRange
  if (contentRange === undefined) {
    if (answer.ContentLength !== undefined && range.offset > answer.ContentLength) {
      throw new PinfoldError('RANGE_NOT_SATISFIABLE', `range starts past the end of ${key}`)
    }
    return { skip: range.offset, take: range.length }
  }
  const match = CONTENT_RANGE.exec(contentRange)
  if (!match)
    throw new PinfoldError('INTERNAL', `@pinfold/adapter-s3: GetObject ${key} answered Content-Range "${contentRange}"`)
  if (match[3] === '0') return { skip: 0, take: 0 }
  const start = Number(match[1])
  if (start > range.offset) {
    throw new PinfoldError(
      'INTERNAL',
      `@pinfold/adapter-s3: GetObject ${key} answered bytes from ${start} for a range from ${range.offset}`,
    )
  }
  return { skip: range.offset - start, take: range.length }
}

/** The bytes of `body` inside `window` (whose `take` is not 0); stops reading once the window is full. */
export async function* windowOf(
  body: AsyncIterable<Uint8Array>,
  { skip, take }: RangeWindow,
): AsyncGenerator<Uint8Array> {
  let toSkip = skip
  let left = take ?? Number.POSITIVE_INFINITY
  for await (const chunk of body) {
    const from = Math.min(toSkip, chunk.length)
    toSkip -= from
    const piece = chunk.subarray(from, from + Math.min(left, chunk.length - from))
    if (piece.length > 0) {
      left -= piece.length
      yield piece
    }
    if (left === 0) return
  }
}
