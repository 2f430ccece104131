import dayjs, { type Dayjs } from 'dayjs'
import timezone from 'dayjs/plugin/timezone'
import utc from 'dayjs/plugin/utc'

dayjs.extend(utc)
dayjs.extend(timezone)

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
const CALENDAR_DATE = /^\d{4}-\d{2}-\d{2}$/

/** A moment as the organisation's clocks read it; a calendar date as it is. */
export function inOrganizationZone(value: dayjs.ConfigType): Dayjs {
  if (typeof value === 'string' && CALENDAR_DATE.test(value)) return dayjs(value)
  return dayjs(value).tz(organizationTimeZone())
}

/** The current moment as the organisation's clocks read it: what "now" and "today" default to in a form. */
export function organizationNow(): Dayjs {
  return dayjs().tz(organizationTimeZone())
}

/** Today's date as the organisation's calendar reads it, as the date-only pickers hold days (local midnight). */
export function organizationToday(): Dayjs {
  return dayjs(organizationNow().format('YYYY-MM-DD'))
}

/**
 * The moment the organisation's clocks read as `day`'s date at `time`'s hours and minutes, both read
 * in the organisation's zone: what a date and a time picked in the pickers (whose `timezone` is
 * organizationTimeZone(), their values from inOrganizationZone) stand for, whatever the browser's zone.
 * A time skipped when the clocks go forward reads as the hour after it.
 */
export function fromOrganizationWallClock(day: Dayjs, time: Dayjs): Dayjs {
  const zone = organizationTimeZone()
  return dayjs.tz(`${day.tz(zone).format('YYYY-MM-DD')}T${time.tz(zone).format('HH:mm')}`, zone)
}

/** A calendar date, or the day of a moment in the organisation's zone, as the language writes it. */
export function formatDate(value: dayjs.ConfigType, language: string): string {
  return inOrganizationZone(value).format(datePattern(language))
}

/** The 24-hour time of a moment in the organisation's zone. */
export function formatTime(value: dayjs.ConfigType): string {
  return inOrganizationZone(value).format('HH:mm')
}

const offsetAt = (zone: string, moment: Dayjs): number => moment.tz(zone).utcOffset()

/**
 * The zone's short name ('UTC+1', 'GMT-5') when the browser's clocks read `moment` differently from
 * the organisation's, so that a reader elsewhere is not surprised; undefined when they agree.
 */
export function zoneNote(value: dayjs.ConfigType, language: string): string | undefined {
  const moment = dayjs(value)
  const zone = organizationTimeZone()
  if (!moment.isValid() || offsetAt(zone, moment) === offsetAt(browserTimeZone(), moment)) return undefined
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
