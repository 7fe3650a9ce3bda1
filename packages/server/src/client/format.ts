import { CliError } from './cli-error.js'

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'] as const

/** `1536` → `1.5 KiB`: binary units, as `ls -h` and the rest of Pinfold's docs count. */
export function formatBytes(bytes: number): string {
  let value = bytes
  let unit = 0
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024
    unit++
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(value < 10 ? 2 : 1)} ${UNITS[unit]}`
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
