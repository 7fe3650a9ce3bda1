const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB']

export function formatBytes(bytes: number): string {
  let value = bytes
  let unit = 0
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024
    unit++
  }
  return `${unit === 0 ? value : value.toFixed(value < 10 ? 1 : 0)} ${UNITS[unit]}`
}

export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '—'
  const s = Math.max(0, Math.round(seconds))
  if (s < 60) return `${s} s`
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`
}

export function formatDate(iso: string | undefined | null): string {
  if (!iso) return '—'
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString()
}

/** A time the API sends as Unix seconds (`expires_at`), which `Date` would read as milliseconds. */
export function formatUnixSeconds(seconds: number | undefined | null): string {
  if (seconds === undefined || seconds === null) return '—'
  return new Date(seconds * 1000).toLocaleString()
}

/** `key=value` pairs, one per line or comma-separated, into an object; blank entries are skipped. */
export function parseKeyvalues(text: string): Record<string, string> {
  const result: Record<string, string> = {}
  for (const entry of text.split(/[\n,]/)) {
    const trimmed = entry.trim()
    if (!trimmed) continue
    const equals = trimmed.indexOf('=')
    if (equals <= 0) throw new Error(`"${trimmed}" is not key=value`)
    result[trimmed.slice(0, equals).trim()] = trimmed.slice(equals + 1).trim()
  }
  return result
}
