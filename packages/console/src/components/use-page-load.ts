import { useCallback, useEffect, useState } from 'react'

/**
 * A page of a list as `fetchPage` answers it, fetched again whenever `fetchPage` changes (a view
 * makes it with `useCallback` over its query and page): the answer (null before the first and after
 * a failure), the failure, and whether a request is under way (for `aria-busy`).
 */
export function usePageLoad<T>(fetchPage: () => Promise<T>) {
  const [data, setData] = useState<T | null>(null)
  const [error, setError] = useState<unknown>(null)
  const [loading, setLoading] = useState(false)

  const reload = useCallback(async () => {
    setLoading(true)
    setError(null)
    try {
      setData(await fetchPage())
    } catch (failure) {
      setError(failure)
      setData(null)
    } finally {
      setLoading(false)
    }
  }, [fetchPage])

  useEffect(() => {
    void reload()
  }, [reload])

  return { data, error, setError, loading, reload }
}
