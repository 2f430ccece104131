import { describe, expect, it } from 'vitest'
import { formatDate, formatDateTime } from './dates'

describe('formatDate', () => {
  it('writes YYYY-MM-DD in English and DD/MM/YYYY in French', () => {
    expect(formatDate('2026-03-09', 'en')).toBe('2026-03-09')
    expect(formatDate('2026-03-09', 'fr')).toBe('09/03/2026')
  })

  it('writes French for an unknown language', () => {
    expect(formatDate('2026-12-31', 'de')).toBe('31/12/2026')
  })
})

describe('formatDateTime', () => {
  it('writes the date as the language does, then the 24-hour time in the local zone', () => {
    const moment = new Date(2026, 2, 9, 14, 5)
    expect(formatDateTime(moment, 'en')).toBe('2026-03-09 14:05')
    expect(formatDateTime(moment, 'fr')).toBe('09/03/2026 14:05')
  })
})
