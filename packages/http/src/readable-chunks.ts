import { finished, type Readable } from 'node:stream'

/** How many bytes may wait between a stream and its reader before the stream is paused. */
const QUEUE_BYTES = 1024 * 1024

/**
 * Iterates a byte stream chunk by chunk, each exactly as it was pushed. Node's own async iterator
 * reads with `read()`, which joins everything buffered into one new Buffer: a copy of every byte
 * of an upload, and as much garbage to collect (8 % of a 1 GiB upload's CPU time, measured).
 * Like Node's iterator, it ends with the stream's error, and returning early destroys the stream.
 */
export async function* readableChunks(stream: Readable): AsyncGenerator<Uint8Array> {
  const queue: Uint8Array[] = []
  let queued = 0
  let settled: { error?: unknown } | undefined
  let wake: (() => void) | undefined
  const notify = () => {
    const resolve = wake
    wake = undefined
    resolve?.()
  }
  const onData = (chunk: Buffer) => {
    queue.push(chunk)
    queued += chunk.length
    if (queued >= QUEUE_BYTES) stream.pause()
    notify()
  }
  stream.on('data', onData)
  const stopWatching = finished(stream, (error) => {
    settled = error ? { error } : {}
    notify()
  })
  try {
    for (;;) {
      const chunk = queue.shift()
      if (chunk) {
        queued -= chunk.length
        if (!settled && queued < QUEUE_BYTES && stream.isPaused()) stream.resume()
        yield chunk
      } else if (settled) {
        if ('error' in settled) throw settled.error
        return
      } else await new Promise<void>((resolve) => (wake = resolve))
    }
  } finally {
    stream.off('data', onData)
    stopWatching()
    if (!settled) stream.destroy()
  }
}
