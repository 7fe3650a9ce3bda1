/**
 * Polls `probe` every 100 ms until it returns something other than `undefined`; fails after
 * `timeoutMs` naming what it waited for. For what a server does in the background (a pin job, a
 * sweep), whose end no request answers.
 */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}
