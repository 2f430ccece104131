import { describe, expect, it } from 'vitest'
import { periodLabel, usageWindow } from './periods'

describe('the periods asked for', () => {
  it('are the 78 weeks ending with the current one, counted from the week of 1 January two years back', () => {
    // Tuesday 24 November 2026: its Monday is the 151st week after Monday 1 January 2024.
    expect(usageWindow('week', new Date(2026, 10, 24, 9))).toEqual({ granularity: 'week', fromYear: 2024, start: 74, count: 78 })
    // The week of 1 January 2024 began on that Monday; the one of 1 January 2025 (a Wednesday) on 30 December.
    expect(usageWindow('week', new Date(2026, 0, 1, 23))).toEqual({ granularity: 'week', fromYear: 2024, start: 104 - 77, count: 78 })
  })

  it('are the 18 months ending with the current one', () => {
    expect(usageWindow('month', new Date(2026, 10, 24))).toEqual({ granularity: 'month', fromYear: 2024, start: 17, count: 18 })
    expect(usageWindow('month', new Date(2026, 0, 1))).toEqual({ granularity: 'month', fromYear: 2024, start: 7, count: 18 })
  })

  it('are the same across a change of summer time', () => {
    // Sunday 29 March 2026 (the change) and Monday 30 March are one week apart.
    const before = usageWindow('week', new Date(2026, 2, 29, 12)).start
    expect(usageWindow('week', new Date(2026, 2, 30, 0, 30)).start).toBe(before + 1)
  })
})

describe('period labels', () => {
  it("write a week as its Monday in the language's date pattern", () => {
    expect(periodLabel('2025-01-06', 'week', 'fr')).toBe('06/01/2025')
    expect(periodLabel('2025-01-06', 'week', 'en')).toBe('2025-01-06')
  })

  it('write a month as its month and year, short on the axis and long in the table', () => {
    expect(periodLabel('2025-01-01', 'month', 'fr')).toBe('janv. 2025')
    expect(periodLabel('2025-01-01', 'month', 'en')).toBe('Jan 2025')
    expect(periodLabel('2025-12-01', 'month', 'fr', true)).toBe('décembre 2025')
    expect(periodLabel('2025-12-01', 'month', 'en', true)).toBe('December 2025')
  })
})
