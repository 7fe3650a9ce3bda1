/**
 * Joins runs of chunks shorter than `minBytes` into chunks of `minBytes` (the last may be shorter),
 * copying only those small chunks, and what of the next chunk completes them; the rest of a chunk
 * of `minBytes` or more passes through uncopied. Whoever then keeps the stream's chunks by the piece
 * (a leaf's pieces until it completes, a part's read-ahead) keeps at most about one per `minBytes`,
 * whatever the client's packets were: a body sent one byte per packet is otherwise millions of
 * objects.
 */
export async function* coalesce(source: AsyncIterable<Uint8Array>, minBytes: number): AsyncGenerator<Uint8Array> {
  let buffer = new Uint8Array(0)
  let filled = 0
  for await (const chunk of source) {
    let rest = chunk
    if (filled > 0) {
      const take = Math.min(minBytes - filled, rest.length)
      buffer.set(rest.subarray(0, take), filled)
      filled += take
      rest = rest.subarray(take)
      if (filled < minBytes) continue
      yield buffer
      filled = 0
    }
    if (rest.length >= minBytes) yield rest
    else if (rest.length > 0) {
      // a fresh buffer each time: the one yielded belongs to the consumer now
      buffer = new Uint8Array(minBytes)
      buffer.set(rest)
      filled = rest.length
    }
  }
  if (filled > 0) yield buffer.subarray(0, filled)
}
