import prettyBytes from 'pretty-bytes'
import { CliError } from './cli-error.js'

/**
 * `1536` → `1.5 KiB`: binary units, as `ls -h` and the rest of Pinfold's docs count, by
 * pretty-bytes (one decimal at most, so a rate never prints as `232.86250522627265 B/s`).
 */
export function formatBytes(bytes: number): string {
  return prettyBytes(bytes, { binary: true, maximumFractionDigits: 1 })
}

/** A transfer rate: `formatBytes` per second. */
export function formatRate(bytesPerSecond: number): string {
  return `${formatBytes(bytesPerSecond)}/s`
}

/** `75` → `1m15s`; whole seconds, the precision an ETA deserves. */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?'
  const s = Math.max(0, Math.round(seconds))
  if (s < 60) return `${s}s`
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`
}

const SPAN = /^(\d+)\s*(s|sec|secs|seconds?|m|min|mins|minutes?|h|hr|hrs|hours?|d|days?|w|weeks?)?$/i
const SPAN_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 }

/**
 * `90`, `90s`, `15m`, `1h`, `7d`, `2w` → seconds. The one parser behind every duration flag, so
 * what a help text promises is what is accepted.
 */
export function parseDuration(text: string, flag: string): number {
  const match = SPAN.exec(text.trim())
  const seconds = match ? Number(match[1]) * SPAN_SECONDS[(match[2] ?? 's')[0]!.toLowerCase()]! : Number.NaN
  if (!Number.isSafeInteger(seconds) || seconds <= 0)
    throw new CliError(
      `${flag} must be a positive duration such as 90, 30s, 15m, 1h, 7d or 2w; got ${JSON.stringify(text)}`,
      2,
    )
  return seconds
}
