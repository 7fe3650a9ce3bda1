import { useCallback, useEffect, useState } from 'react'
import { useAction } from './use-action'

/**
 * A page of a list as `fetchPage` answers it, fetched again whenever `fetchPage` changes (a view
 * makes it with `useCallback` over its query and page): the answer (null before the first and after
 * a failure), the failure, and whether a request is under way (for `aria-busy`).
 */
export function usePageLoad<T>(fetchPage: () => Promise<T>) {
  const [data, setData] = useState<T | null>(null)
  const { error, setError, busy: loading, run } = useAction()

  const reload = useCallback(
    () =>
      run(async () => {
        try {
          setData(await fetchPage())
        } catch (failure) {
          // a page that failed shows no rows, not those of the page before it
          setData(null)
          throw failure
        }
      }),
    [fetchPage, run],
  )

  useEffect(() => {
    void reload()
  }, [reload])

  return { data, error, setError, loading, reload }
}
