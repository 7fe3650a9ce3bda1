/**
 * Passes a byte stream through once its first `headSize` bytes (all of it, if shorter) passed
 * `check`. Those bytes are held back until then, so a refused stream hands nothing downstream
 * and at most `headSize` bytes plus one chunk are ever held.
 */
export async function* checkedHead(
  source: AsyncIterable<Uint8Array>,
  headSize: number,
  check: (head: Uint8Array) => Promise<void>,
): AsyncGenerator<Uint8Array> {
  const held: Uint8Array[] = []
  let heldBytes = 0
  const iterator = source[Symbol.asyncIterator]()
  try {
    while (heldBytes < headSize) {
      const next = await iterator.next()
      if (next.done) break
      held.push(next.value)
      heldBytes += next.value.length
    }
    const start = Buffer.concat(held)
    await check(start.subarray(0, headSize))
    if (start.length > 0) yield start
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value
  } finally {
    await iterator.return?.()
  }
}
