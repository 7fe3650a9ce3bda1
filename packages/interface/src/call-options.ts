/** What every port method and every long operation accepts: a signal that stops it with `ABORTED`. */
export interface CallOptions {
  signal?: AbortSignal | undefined
}
