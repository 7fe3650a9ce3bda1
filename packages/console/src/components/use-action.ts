import { useCallback, useState } from 'react'

/** The state an action reports through: a view's own React setters, or a test's record of the calls. */
export interface ActionState {
  setBusy(busy: boolean): void
  setError(error: unknown): void
  setDone(message: string | null): void
}

/**
 * One run of an action (a save, a delete, a load on request): busy while it runs, the last
 * outcome cleared first, its failure kept to be shown. The action says what it did with `setDone`
 * itself, before whatever reload follows it, so the message does not wait for the reload.
 */
export async function runAction(state: ActionState, action: () => Promise<unknown>): Promise<void> {
  state.setBusy(true)
  state.setError(null)
  state.setDone(null)
  try {
    await action()
  } catch (failure) {
    state.setError(failure)
  } finally {
    state.setBusy(false)
  }
}

/**
 * What a view's buttons run: `run(action)`, and its outcome for the view to show — `error` for an
 * `ErrorNote`, `done` (what it did, in words) for a `Status`, `busy` to disable the buttons that
 * must not start a second run meanwhile. `setError` also takes failures found elsewhere (a load,
 * a field that does not parse), shown in the same place. `run` keeps its identity across renders.
 */
export function useAction() {
  const [error, setError] = useState<unknown>(null)
  const [done, setDone] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const run = useCallback((action: () => Promise<unknown>) => runAction({ setBusy, setError, setDone }, action), [])
  return { error, setError, done, setDone, busy, run }
}
