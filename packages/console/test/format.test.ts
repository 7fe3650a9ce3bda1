import { describe, expect, it } from 'vitest'
import { formatUnixSeconds } from '../src/format.js'

describe('formatUnixSeconds', () => {
  it('reads the Unix seconds the API sends for expires_at, not milliseconds', () => {
    const seconds = Date.UTC(2031, 5, 15, 12) / 1000
    expect(formatUnixSeconds(seconds)).toBe(new Date('2031-06-15T12:00:00Z').toLocaleString())
  })

  it('shows a dash for a file that never expires', () => {
    expect(formatUnixSeconds(null)).toBe('—')
    expect(formatUnixSeconds(undefined)).toBe('—')
  })
})
