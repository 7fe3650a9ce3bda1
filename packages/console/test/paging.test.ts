import { describe, expect, it } from 'vitest'
import { pageStart } from '../src/components/paging.js'

describe('pageStart', () => {
  it('is the start of the page that holds an item', () => {
    expect(pageStart(0, 25, 60)).toBe(0)
    expect(pageStart(24, 25, 60)).toBe(0)
    expect(pageStart(25, 25, 60)).toBe(25)
    expect(pageStart(59, 25, 60)).toBe(50)
  })

  it('is the last page for an index past the end: after a removal emptied the page shown, or to show an item just added', () => {
    expect(pageStart(50, 25, 50)).toBe(25)
    expect(pageStart(Number.POSITIVE_INFINITY, 25, 51)).toBe(50)
    expect(pageStart(Number.POSITIVE_INFINITY, 25, 50)).toBe(25)
  })

  it('is 0 for an empty list or a negative index', () => {
    expect(pageStart(25, 25, 0)).toBe(0)
    expect(pageStart(-3, 25, 10)).toBe(0)
  })
})
