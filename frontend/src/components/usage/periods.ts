import { formatDate } from '../../lib/dates'

export type Granularity = 'week' | 'month'

/** How many periods the chart shows (spec 1 §9: 78 weeks; the same span in months). */
export const PERIOD_COUNTS: Record<Granularity, number> = { week: 78, month: 18 }

/** The periods the server is asked for: `count` of them ending with the current one. */
export interface UsageWindow {
  granularity: Granularity
  fromYear: number
  start: number
  count: number
}

const DAY = 86_400_000

/** Days since the epoch of a calendar date, free of the time of day and of daylight saving time. */
function dayNumber(year: number, month: number, day: number): number {
  return Date.UTC(year, month, day) / DAY
}

/** The Monday of the week holding that calendar date, as a day number. */
function mondayOf(year: number, month: number, day: number): number {
  const n = dayNumber(year, month, day)
  const weekday = (new Date(n * DAY).getUTCDay() + 6) % 7
  return n - weekday
}

/**
 * The server counts periods from period 0 of `fromYear`: the week holding 1 January, or January.
 * Two years back is always far enough for 78 weeks or 18 months, so `start` is never negative.
 */
export function usageWindow(granularity: Granularity, today: Date): UsageWindow {
  const count = PERIOD_COUNTS[granularity]
  const fromYear = today.getFullYear() - 2
  const current =
    granularity === 'week'
      ? Math.round((mondayOf(today.getFullYear(), today.getMonth(), today.getDate()) - mondayOf(fromYear, 0, 1)) / 7)
      : (today.getFullYear() - fromYear) * 12 + today.getMonth()
  return { granularity, fromYear, start: current - count + 1, count }
}

function parts(start: string): [number, number, number] {
  const [year, month, day] = start.split('-').map(Number)
  return [year, month - 1, day]
}

/**
 * A period's label from its first day (YYYY-MM-DD): the date in the language's pattern for a week,
 * the month and year for a month ('janv. 2025', or 'janvier 2025' when `long`).
 */
export function periodLabel(start: string, granularity: Granularity, language: string, long = false): string {
  if (granularity === 'week') return formatDate(start, language)
  const [year, month] = parts(start)
  return new Intl.DateTimeFormat(language, { month: long ? 'long' : 'short', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(Date.UTC(year, month, 1)),
  )
}
