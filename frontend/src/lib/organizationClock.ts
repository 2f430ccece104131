import dayjs, { type Dayjs } from 'dayjs'
import timezone from 'dayjs/plugin/timezone'
import utc from 'dayjs/plugin/utc'
import { CALENDAR_DATE, organizationTimeZone } from './dates'

// What the forms' pickers hold: days and times on the organisation's clocks, whatever the browser's zone.
// Pages that only show dates write them with ./dates, which needs neither plugin.
dayjs.extend(utc)
dayjs.extend(timezone)

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
