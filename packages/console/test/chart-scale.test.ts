import { describe, expect, it } from 'vitest'
import { dailyPoints, niceCeiling } from '../src/components/chart-scale.js'

describe('niceCeiling', () => {
  it('tops an axis at 1, 2 or 4 times a power of ten, so its middle tick is round too', () => {
    expect(niceCeiling(7, { whole: true })).toBe(10)
    expect(niceCeiling(13, { whole: true })).toBe(20)
    expect(niceCeiling(3500)).toBe(4000)
    expect(niceCeiling(10)).toBe(10)
  })

  it('gives counts whole ticks: a single request reads 0, 1, 2', () => {
    expect(niceCeiling(0, { whole: true })).toBe(2)
    expect(niceCeiling(1, { whole: true })).toBe(2)
  })

  it('rounds bytes in the unit they are shown in', () => {
    expect(niceCeiling(145 * 1024, { binary: true })).toBe(200 * 1024)
    expect(niceCeiling(3 * 1024 * 1024, { binary: true })).toBe(4 * 1024 * 1024)
    expect(niceCeiling(0, { binary: true })).toBe(1)
  })
})

describe('dailyPoints', () => {
  const start = new Date('2026-11-01T15:00:00Z')
  const end = new Date('2026-11-05T09:00:00Z')
  const requests = (periods: { period_start_time: string; requests: number }[]) =>
    dailyPoints(
      periods.map((p) => ({ ...p, bandwidth: 0 })),
      start,
      end,
      (p) => p.requests,
    )

  it('lists every day of the range, zeros where the API listed nothing, so one day of traffic has its place', () => {
    expect(requests([{ period_start_time: '2026-11-03T00:00:00Z', requests: 7 }])).toEqual([
      { label: '2026-11-01', value: 0 },
      { label: '2026-11-02', value: 0 },
      { label: '2026-11-03', value: 7 },
      { label: '2026-11-04', value: 0 },
      { label: '2026-11-05', value: 0 },
    ])
  })

  it('keeps a day outside the range (a server clock ahead of the browser), in order', () => {
    const points = requests([{ period_start_time: '2026-11-06T00:00:00Z', requests: 2 }])
    expect(points.map((p) => p.label).at(-1)).toBe('2026-11-06')
    expect(points).toHaveLength(6)
  })
})
