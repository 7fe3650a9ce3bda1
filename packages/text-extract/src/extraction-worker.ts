import { type ErrorCode, isPinfoldError } from '@pinfold/interface'
import { passagesOf } from './extract-passages.js'
import type { ExtractionTask } from './extraction-task.js'

/** A worker's answer. Errors travel as plain fields: an Error's `code` does not survive the thread boundary. */
export type ExtractionReply =
  | { passages: string[] }
  | { error: { code: ErrorCode; message: string; details?: Readonly<Record<string, unknown>> | undefined } }

/**
 * The entry point of an extraction worker thread (piscina calls the default export with each task).
 * Anything a parser throws other than a coded error — a stack overflow, a library's own exception —
 * is about this file's content, so it is reported as unreadable input, never as a server fault.
 */
export default async function extractInWorker(task: ExtractionTask): Promise<ExtractionReply> {
  try {
    return { passages: await passagesOf(task) }
  } catch (err) {
    if (isPinfoldError(err)) return { error: { code: err.code, message: err.message, details: err.details } }
    return { error: { code: 'INVALID_INPUT', message: `cannot extract text from ${task.kind}: ${String(err)}` } }
  }
}
