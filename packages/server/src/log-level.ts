import { PinfoldError } from '@pinfold/core'

/** `PINFOLD_LOG_LEVEL`: the least severe level written; each level includes those after it. */
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]

export function parseLogLevel(value: string | undefined): LogLevel {
  if (value === undefined || value === '') return 'info'
  const level = value.toLowerCase()
  if ((LOG_LEVELS as readonly string[]).includes(level)) return level as LogLevel
  throw new PinfoldError(
    'INVALID_INPUT',
    `PINFOLD_LOG_LEVEL must be ${LOG_LEVELS.join(', ')} (default info), got ${JSON.stringify(value)}`,
  )
}

/** Whether a line at `level` is written when the setting is `threshold`. */
export function logs(threshold: LogLevel, level: LogLevel): boolean {
  return LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(threshold)
}
