import { afterEach, beforeEach } from 'vitest'

/**
 * Every conformance test starts from an empty store of its own: `create` makes it before the test
 * and its `close` releases it after, so no test sees another's records or blobs, and what a harness
 * holds (a PostgreSQL schema and its pool, a temporary folder) is freed even when the test fails.
 * Each port's suite needs exactly this pair of hooks; here it is written once, for all of them.
 * A `create` that fails leaves nothing to close (no earlier test's harness is closed twice).
 *
 * Call it inside the suite's `describe`; `use` receives each test's harness before the test runs
 * (a suite keeps the harness, or just its store, in a variable its tests read).
 */
export function freshHarnessPerTest<Harness extends { close?(): Promise<void> }>(
  create: () => Promise<Harness>,
  use: (harness: Harness) => void,
): void {
  let current: Harness | undefined
  beforeEach(async () => {
    current = await create()
    use(current)
  })
  afterEach(async () => {
    const harness = current
    current = undefined
    await harness?.close?.()
  })
}
