import { describe, expect, it } from 'vitest'
import { formatDate } from './dates'

describe('formatDate', () => {
  it('writes YYYY-MM-DD in English and DD/MM/YYYY in French', () => {
    expect(formatDate('2026-03-09', 'en')).toBe('2026-03-09')
    expect(formatDate('2026-03-09', 'fr')).toBe('09/03/2026')
  })

  it('writes French for an unknown language', () => {
    expect(formatDate('2026-12-31', 'de')).toBe('31/12/2026')
  })
})
