import dayjs from 'dayjs'

const DATE_PATTERNS: Record<string, string> = { en: 'YYYY-MM-DD', fr: 'DD/MM/YYYY' }

/** How the language writes a calendar date: YYYY-MM-DD in English, DD/MM/YYYY in French. */
export function datePattern(language: string): string {
  return DATE_PATTERNS[language] ?? DATE_PATTERNS.fr
}

/** The browser's own zone, for as long as the server has not named the organisation's. */
const browserTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone

let organizationZone: string | undefined

/**
 * Times are shown in the organisation's zone (SPOT_TIMEZONE, given by GET /organization/info), as
 * the server's files write them, whatever the browser's zone; an unknown name is ignored.
 */
export function setOrganizationTimeZone(zone: string | undefined): void {
  organizationZone = zone && isKnownZone(zone) ? zone : undefined
}

function isKnownZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone })
    return true
  } catch {
    return false
  }
}

export function organizationTimeZone(): string {
  return organizationZone ?? browserTimeZone()
}

// A calendar date (YYYY-MM-DD) names a day, not a moment: it has no zone to convert from.
export const CALENDAR_DATE = /^\d{4}-\d{2}-\d{2}$/

type WallClock = Record<'year' | 'month' | 'day' | 'hour' | 'minute', string>

const wallClockFormats = new Map<string, Intl.DateTimeFormat>()

/** What the organisation's calendar and clocks read at a moment, as digits (one formatter per zone, made once). */
function wallClock(moment: Date): WallClock {
  const zone = organizationTimeZone()
  const digits = '2-digit'
  const format = wallClockFormats.get(zone) ?? new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: digits, day: digits, hour: digits, minute: digits })
  wallClockFormats.set(zone, format)
  return Object.fromEntries(format.formatToParts(moment).map(({ type, value }) => [type, value])) as WallClock
}

/** A moment to read on the organisation's clocks; undefined for a calendar date or what is not a moment. */
function momentOf(value: dayjs.ConfigType): Date | undefined {
  if (typeof value === 'string' && CALENDAR_DATE.test(value)) return undefined
  const moment = dayjs(value)
  return moment.isValid() ? moment.toDate() : undefined
}

/** A calendar date, or the day of a moment in the organisation's zone, as the language writes it. */
export function formatDate(value: dayjs.ConfigType, language: string): string {
  const moment = momentOf(value)
  if (!moment) return dayjs(value).format(datePattern(language))
  const { year, month, day } = wallClock(moment)
  return datePattern(language).replace('YYYY', year).replace('MM', month).replace('DD', day)
}

/** The 24-hour time of a moment in the organisation's zone. */
export function formatTime(value: dayjs.ConfigType): string {
  const moment = momentOf(value)
  if (!moment) return dayjs(value).format('HH:mm')
  const { hour, minute } = wallClock(moment)
  return `${hour}:${minute}`
}

/** How many minutes the organisation's clocks are ahead of UTC at `moment`. */
function organizationOffset(moment: Date): number {
  const { year, month, day, hour, minute } = wallClock(moment)
  return Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute)) / 60_000 - Math.floor(moment.getTime() / 60_000)
}

/**
 * The zone's short name ('UTC+1', 'GMT-5') when the browser's clocks read `moment` differently from
 * the organisation's, so that a reader elsewhere is not surprised; undefined when they agree.
 */
export function zoneNote(value: dayjs.ConfigType, language: string): string | undefined {
  const moment = dayjs(value)
  if (!moment.isValid()) return undefined
  const date = moment.toDate()
  if (organizationOffset(date) === -date.getTimezoneOffset()) return undefined
  const zone = organizationTimeZone()
  return new Intl.DateTimeFormat(language, { timeZone: zone, timeZoneName: 'short' })
    .formatToParts(moment.toDate())
    .find((part) => part.type === 'timeZoneName')?.value
}

/**
 * A moment in the organisation's zone: its date as the language writes it, then the 24-hour time,
 * then the zone's name when the browser's zone reads it differently.
 */
export function formatDateTime(value: dayjs.ConfigType, language: string): string {
  const note = zoneNote(value, language)
  const written = `${formatDate(value, language)} ${formatTime(value)}`
  return note ? `${written} (${note})` : written
}
