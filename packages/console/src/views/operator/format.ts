import type { TenantLimits } from '../../api/admin'
import { formatBytes } from '../../format'

export type LimitName = keyof TenantLimits

/** Each limit the admin API sets, in the order the tenant page lists them. */
export const LIMITS: readonly { name: LimitName; label: string; bytes: boolean }[] = [
  { name: 'storage_bytes', label: 'Storage', bytes: true },
  { name: 'files', label: 'Files', bytes: false },
  { name: 'file_bytes', label: 'Largest file', bytes: true },
  { name: 'open_pin_requests', label: 'Open pin requests', bytes: false },
  { name: 'requests_per_minute', label: 'Requests per minute', bytes: false },
  { name: 'vectorized_files', label: 'Vectorized files', bytes: false },
]

export function formatLimit(name: LimitName, value: number | null | undefined): string {
  if (value === null || value === undefined) return 'no limit'
  return LIMITS.find((limit) => limit.name === name)?.bytes ? formatBytes(value) : value.toLocaleString('en')
}

/** The limits that apply, briefly ("files 100 · storage 1.0 GiB"), or "none". */
export function limitsSummary(limits: TenantLimits): string {
  const set = LIMITS.filter(({ name }) => limits[name] !== null)
  if (set.length === 0) return 'none'
  return set.map(({ name, label }) => `${label.toLowerCase()} ${formatLimit(name, limits[name])}`).join(' · ')
}

/** How long ago an ISO time was, as "4 min 10 s". */
export function age(iso: string, now = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000))
  if (seconds < 60) return `${seconds} s`
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`
  return `${Math.floor(seconds / 86_400)} d ${Math.floor((seconds % 86_400) / 3600)} h`
}
