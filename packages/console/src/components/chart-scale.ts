import type { TimeSeries } from '../api/types'

/**
 * 1, 2 or 4 times a power of ten at or above `value`: the top of an axis people read at a glance,
 * whose half (the middle tick) is round too; at least 2 for counts, whose ticks are whole. Bytes
 * (`binary`) are rounded in the unit they are shown in (200 KiB, not 195 KiB).
 */
export function niceCeiling(value: number, { whole = false, binary = false } = {}): number {
  const floor = whole ? 2 : 1
  if (value <= floor) return floor
  const unit = binary ? 1024 ** Math.floor(Math.log(value) / Math.log(1024)) : 1
  const scaled = value / unit
  const power = 10 ** Math.floor(Math.log10(scaled))
  return [1, 2, 4, 10].find((m) => m * power >= scaled)! * power * unit
}

const day = (date: Date) => date.toISOString().slice(0, 10)

/**
 * Every day from `start` to `end` (UTC), with the series' figures where it has some: the API lists
 * only days with traffic, and one lone bar without its empty days around it says nothing of when.
 * Days of the series outside the range (a clock apart from the server's) are kept, in order.
 */
export function dailyPoints(
  periods: TimeSeries['time_periods'],
  start: Date,
  end: Date,
  value: (period: TimeSeries['time_periods'][number]) => number,
): { label: string; value: number }[] {
  const byDay = new Map<string, number>()
  for (let time = Date.parse(day(start)); time <= end.getTime(); time += 86_400_000) byDay.set(day(new Date(time)), 0)
  for (const period of periods) {
    const label = period.period_start_time.slice(0, 10)
    byDay.set(label, (byDay.get(label) ?? 0) + value(period))
  }
  return [...byDay].sort(([a], [b]) => a.localeCompare(b)).map(([label, total]) => ({ label, value: total }))
}
