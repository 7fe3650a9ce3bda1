import { useCallback, useEffect } from 'react'

/**
 * `load` (a view's read of what it shows, made with `useCallback` over what it reads) run as the
 * view opens and again whenever it changes, its failure handed to `onError` (the view's
 * `setError`), so it shows where the view's actions show theirs. Returns it for a reload after a
 * change: it resolves to what `load` did, or undefined when it failed.
 */
export function useLoad<T>(load: () => Promise<T>, onError: (failure: unknown) => void): () => Promise<T | undefined> {
  const reload = useCallback(
    () =>
      load().catch((failure: unknown) => {
        onError(failure)
        return undefined
      }),
    [load, onError],
  )
  useEffect(() => {
    void reload()
  }, [reload])
  return reload
}
