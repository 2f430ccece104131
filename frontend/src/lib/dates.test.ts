import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import dayjs from 'dayjs'
import { formatDate, formatDateTime, formatTime, setOrganizationTimeZone } from './dates'
import { fromOrganizationWallClock, inOrganizationZone, organizationNow, organizationToday } from './organizationClock'

/** The browser's clocks set to `zone` (Node reads TZ again when it changes). */
function browserIn(zone: string) {
  vi.stubEnv('TZ', zone)
}

afterEach(() => {
  vi.unstubAllEnvs()
  vi.useRealTimers()
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

  it('reads the hour the clocks go back twice, and zones a quarter of an hour apart', () => {
    browserIn('Europe/Paris')
    expect(formatDateTime('2026-10-25T00:30:00Z', 'en')).toBe('2026-10-25 02:30')
    expect(formatDateTime('2026-10-25T01:30:00Z', 'en')).toBe('2026-10-25 02:30')
    setOrganizationTimeZone('Asia/Kathmandu')
    browserIn('Asia/Kathmandu')
    expect(formatDateTime('2026-11-28T12:06:00Z', 'en')).toBe('2026-11-28 17:51')
    browserIn('Asia/Kolkata')
    expect(formatDateTime('2026-11-28T12:06:00Z', 'en')).toMatch(/^2026-11-28 17:51 \(.+\)$/)
  })

  it('keeps the browser zone for an unknown zone name', () => {
    setOrganizationTimeZone('Mars/Olympus')
    browserIn('Asia/Tokyo')
    expect(formatDateTime('2026-11-28T12:06:00Z', 'en')).toBe('2026-11-28 21:06')
  })
})

describe("inputs on the organisation's clocks", () => {
  /** The moment of a day and a time as the pickers give them: values in the organisation's zone. */
  const picked = (day: string, time: string, zone: string) => fromOrganizationWallClock(dayjs.tz(day, zone), dayjs.tz(`2026-01-01T${time}`, zone))

  it("reads a server's instant as the organisation's day and time", () => {
    browserIn('Europe/Paris')
    setOrganizationTimeZone('Pacific/Auckland')
    expect(inOrganizationZone('2026-03-10T12:00:00Z').format('YYYY-MM-DD HH:mm')).toBe('2026-03-11 01:00')
  })

  it("takes a day and a time picked as the organisation's wall clock, whatever the browser's zone", () => {
    browserIn('Europe/Paris')
    setOrganizationTimeZone('Pacific/Auckland')
    const day = inOrganizationZone('2026-03-10T12:00:00Z')
    const time = dayjs.tz('2026-01-01T09:30', 'Pacific/Auckland')
    expect(fromOrganizationWallClock(day, time).toISOString()).toBe('2026-03-10T20:30:00.000Z')
  })

  it('follows the offset of the day picked across a change of summer time', () => {
    browserIn('Asia/Tokyo')
    setOrganizationTimeZone('Pacific/Auckland')
    expect(picked('2026-04-04', '09:30', 'Pacific/Auckland').toISOString()).toBe('2026-04-03T20:30:00.000Z')
    expect(picked('2026-04-06', '09:30', 'Pacific/Auckland').toISOString()).toBe('2026-04-05T21:30:00.000Z')
    setOrganizationTimeZone('America/New_York')
    expect(picked('2026-03-07', '09:30', 'America/New_York').toISOString()).toBe('2026-03-07T14:30:00.000Z')
    expect(picked('2026-03-09', '09:30', 'America/New_York').toISOString()).toBe('2026-03-09T13:30:00.000Z')
  })

  it('reads a time the clocks skip as the hour after it', () => {
    browserIn('Europe/Paris')
    setOrganizationTimeZone('America/New_York')
    expect(picked('2026-03-08', '02:30', 'America/New_York').toISOString()).toBe('2026-03-08T07:30:00.000Z')
  })

  it("gives the organisation's now", () => {
    browserIn('Europe/Paris')
    setOrganizationTimeZone('Pacific/Auckland')
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-03-10T12:00:00Z') })
    expect(organizationNow().format('YYYY-MM-DD HH:mm')).toBe('2026-03-11 01:00')
    expect(organizationNow().toISOString()).toBe('2026-03-10T12:00:00.000Z')
  })

  it("gives the organisation's today as a day of the date pickers", () => {
    browserIn('Europe/Paris')
    setOrganizationTimeZone('Pacific/Auckland')
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-03-10T12:00:00Z') })
    // 13:00 in Paris, already the 11th in Auckland: the paths' "not before today" starts there.
    expect(organizationToday().format('YYYY-MM-DD HH:mm')).toBe('2026-03-11 00:00')
    expect(organizationToday().isSame(dayjs('2026-03-11'), 'day')).toBe(true)
  })
})
