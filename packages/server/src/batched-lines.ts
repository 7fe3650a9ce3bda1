/**
 * The most one write may hold for the kernel to write it to a pipe whole (POSIX PIPE_BUF on
 * Linux): the workers of `--workers N` share their primary's stdout, and a longer write of one
 * could be cut by another's, splitting a log line.
 */
const ATOMIC_WRITE_BYTES = 4096

/**
 * Log lines gathered and written once per turn of the event loop: stdout to a pipe or a file is a
 * synchronous write on Linux, and one per request showed in the gateway's profile (issue 35).
 * Lines keep their order, and no write holds more than {@link ATOMIC_WRITE_BYTES} unless one line
 * does; `flush` writes what is pending at once (call it on exit).
 */
export function batchedLines(write: (text: string) => void): { write(line: string): void; flush(): void } {
  let pending: string[] = []
  let scheduled = false
  const flush = () => {
    scheduled = false
    if (pending.length === 0) return
    const lines = pending
    pending = []
    let text = ''
    for (const line of lines) {
      if (text !== '' && Buffer.byteLength(text) + Buffer.byteLength(line) > ATOMIC_WRITE_BYTES) {
        write(text)
        text = ''
      }
      text += line
    }
    write(text)
  }
  return {
    write(line) {
      pending.push(line)
      if (!scheduled) {
        scheduled = true
        setImmediate(flush)
      }
    },
    flush,
  }
}
