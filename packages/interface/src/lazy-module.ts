import { PinfoldError } from './errors.js'

/**
 * A module imported on its first use instead of at start-up: what a feature costs in memory and
 * start time (sharp's libvips, Helia's block brokers, the text parsers) is paid only by a server
 * that uses it. `load` is `() => import('…')`; the returned function gives the module, imported
 * once. A failed import is `UNAVAILABLE` naming `what` cannot run and why, so the request that
 * needed it gets a clear answer (503) instead of a crash; it is not remembered, so the next use
 * tries again (a package installed since, a file system back).
 */
export function lazyModule<T>(what: string, load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined
  return () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined
      throw new PinfoldError(
        'UNAVAILABLE',
        `${what}: unavailable on this server, a module it needs could not be loaded`,
        {
          cause: error,
        },
      )
    })
    return loading
  }
}
