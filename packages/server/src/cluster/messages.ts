import type { FactChange } from '@pinfold/core'

/** The environment variable that tells a forked worker its slot (1 … N). */
export const WORKER_SLOT_VARIABLE = 'PINFOLD_WORKER_SLOT'

/**
 * What a worker of `pinfold serve --workers N` and the primary process say to each other over the
 * cluster's IPC channel (`serialization: 'advanced'`, so rows keep their `Date`s and `Uint8Array`s).
 * Every message carries `pinfold` so that prom-client's and Node's own cluster messages pass by.
 */
export type WorkerMessage =
  | { pinfold: 'listening'; fields: Record<string, unknown> }
  | { pinfold: 'ask'; id: number; request: WorkerRequest }
  | { pinfold: 'change'; change: FactChange }

/** What a worker asks of the primary, answered by a `reply` with the same id. */
export type WorkerRequest =
  | { kind: 'query'; text: string; params: unknown[] | undefined; tx: number | undefined }
  | { kind: 'begin' }
  | { kind: 'end'; tx: number; commit: boolean }
  | { kind: 'metrics' }

export type PrimaryMessage =
  | { pinfold: 'reply'; id: number; value?: unknown; error?: SerializedError }
  | { pinfold: 'change'; change: FactChange }

/**
 * A database error as the record store reads it (`errors.ts` maps SQLSTATE `code` and `constraint`),
 * sent as plain fields: a structured clone of an Error keeps only its message.
 */
export interface SerializedError {
  message: string
  code?: string | undefined
  constraint?: string | undefined
  detail?: string | undefined
}

export function isPinfoldMessage(message: unknown): message is { pinfold: string } {
  return (
    typeof message === 'object' && message !== null && typeof (message as { pinfold?: unknown }).pinfold === 'string'
  )
}

export function serializeError(error: unknown): SerializedError {
  const { message, code, constraint, detail } = (error ?? {}) as Record<string, unknown>
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined)
  return {
    message: text(message) ?? String(error),
    code: text(code),
    constraint: text(constraint),
    detail: text(detail),
  }
}

export function deserializeError(error: SerializedError): Error {
  return Object.assign(new Error(error.message), error)
}
