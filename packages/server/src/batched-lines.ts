/**
 * Log lines gathered and written once per turn of the event loop: stdout to a pipe or a file is a
 * synchronous write on Linux, and one per request showed in the gateway's profile (issue 35).
 * Lines keep their order; `flush` writes what is pending at once (call it on exit).
 */
export function batchedLines(write: (text: string) => void): { write(line: string): void; flush(): void } {
  let pending: string[] = []
  let scheduled = false
  const flush = () => {
    scheduled = false
    if (pending.length === 0) return
    const text = pending.join('')
    pending = []
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
