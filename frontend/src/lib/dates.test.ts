import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { formatDate, formatDateTime, formatTime, setOrganizationTimeZone } from './dates'

/** The browser's clocks set to `zone` (Node reads TZ again when it changes). */
function browserIn(zone: string) {
  vi.stubEnv('TZ', zone)
}

afterEach(() => {
  vi.unstubAllEnvs()
  setOrganizationTimeZone(undefined)
})

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

describe("the organisation's time zone", () => {
  beforeEach(() => setOrganizationTimeZone('Europe/Paris'))

  it('shows a moment as the organisation reads it, naming its zone to a browser elsewhere', () => {
    browserIn('America/New_York')
    expect(formatDateTime('2026-11-28T12:06:00Z', 'en')).toBe('2026-11-28 13:06 (GMT+1)')
    expect(formatDateTime('2026-11-28T12:06:00Z', 'fr')).toBe('28/11/2026 13:06 (UTC+1)')
    expect(formatTime('2026-07-01T12:06:00Z')).toBe('14:06')
  })

  it("dates a moment by the organisation's day", () => {
    browserIn('America/New_York')
    expect(formatDate('2026-11-28T23:30:00Z', 'en')).toBe('2026-11-29')
    expect(formatDateTime('2026-11-28T23:30:00Z', 'en')).toBe('2026-11-29 00:30 (GMT+1)')
  })

  it('keeps a calendar date as it is, whatever the zones', () => {
    browserIn('Pacific/Auckland')
    expect(formatDate('2026-03-09', 'en')).toBe('2026-03-09')
    browserIn('America/Los_Angeles')
    expect(formatDate('2026-03-09', 'fr')).toBe('09/03/2026')
  })

  it('names no zone when the browser reads the same time', () => {
    browserIn('Europe/Berlin')
    expect(formatDateTime('2026-11-28T12:06:00Z', 'en')).toBe('2026-11-28 13:06')
  })

  it('keeps the browser zone for an unknown zone name', () => {
    setOrganizationTimeZone('Mars/Olympus')
    browserIn('Asia/Tokyo')
    expect(formatDateTime('2026-11-28T12:06:00Z', 'en')).toBe('2026-11-28 21:06')
  })
})
