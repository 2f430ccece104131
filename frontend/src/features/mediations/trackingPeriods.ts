import dayjs, { type Dayjs } from 'dayjs'

/**
 * The tracking periods as the report page edits them (spec 1 §5). Whether they may be saved is the
 * server's to say (POST /mediation/{id}/tracking/check, as saving them would answer); the page checks
 * here only that each bound is entered and readable, which it must be to be sent at all.
 * A period runs from the start of its start minute to the end of its stop minute.
 */

const MINUTE_MS = 60_000

/** A period as edited: its start and stop, null when not entered, an invalid Dayjs when unreadable. */
export interface EditedPeriod {
  start: Dayjs | null
  stop: Dayjs | null
}

/** A period as the server holds it (ISO instants; no stop while it runs). */
export interface StoredPeriod {
  start: string
  stop?: string | null
}

/** Message keys (codes.*) refusing a period's start or stop. */
export interface PeriodErrors {
  start?: string
  stop?: string
}

export const MUST_NOT_BE_EMPTY = 'mustNotBeEmpty'
export const UNREADABLE = 'errors.parse'

/** The instant's minute, as milliseconds since the epoch: what the rules compare. */
export function minuteOf(value: Dayjs | string): number {
  return Math.floor(dayjs(value).valueOf() / MINUTE_MS) * MINUTE_MS
}

const entered = (value: Dayjs | null): value is Dayjs => value !== null && value.isValid()

/** Each period's bounds that are not entered (mustNotBeEmpty) or not readable (errors.parse), in the order given. */
export function entryErrors(periods: EditedPeriod[]): PeriodErrors[] {
  const bound = (value: Dayjs | null) => (value === null ? MUST_NOT_BE_EMPTY : value.isValid() ? undefined : UNREADABLE)
  return periods.map(({ start, stop }) => {
    const errors: PeriodErrors = {}
    const startError = bound(start)
    const stopError = bound(stop)
    if (startError) errors.start = startError
    if (stopError) errors.stop = stopError
    return errors
  })
}

/** The periods to ask the server about: those with both bounds entered, at the minute, with their indexes in the list. */
export function periodsToCheck(periods: EditedPeriod[]): { indexes: number[]; periods: { start: string; stop: string }[] } {
  const indexes = periods.flatMap((period, index) => (entered(period.start) && entered(period.stop) ? [index] : []))
  return {
    indexes,
    periods: indexes.map((index) => ({
      start: dayjs(minuteOf(periods[index].start as Dayjs)).toISOString(),
      stop: dayjs(minuteOf(periods[index].stop as Dayjs)).toISOString(),
    })),
  }
}

/** The server's errors of the periods it checked (fields `periods.<position sent>.start|stop`), on the periods of the list. */
export function checkedErrors(errors: { field: string; code: string }[], indexes: number[], count: number): PeriodErrors[] {
  const byPeriod: PeriodErrors[] = Array.from({ length: count }, () => ({}))
  for (const { field, code } of errors) {
    const [name, position, part] = field.split('.')
    const index = indexes[Number(position)]
    if (name === 'periods' && index !== undefined && (part === 'start' || part === 'stop')) byPeriod[index][part] ??= code
  }
  return byPeriod
}

/** The indexes of the periods whose start is entered, in the order of their starts (ties in the given order). */
export function periodsByStart(periods: EditedPeriod[]): number[] {
  return periods
    .map((period, index) => ({ period, index }))
    .filter(({ period }) => entered(period.start))
    .sort((a, b) => minuteOf(a.period.start as Dayjs) - minuteOf(b.period.start as Dayjs) || a.index - b.index)
    .map(({ index }) => index)
}

export const hasErrors = (errors: PeriodErrors[]) => errors.some((e) => e.start !== undefined || e.stop !== undefined)

/** At least one period must remain: the last one cannot be deleted. */
export const canDeletePeriod = (periods: readonly unknown[]) => periods.length > 1

/**
 * The period the add button appends: after the latest stop of the entered periods, one minute long
 * (from the minute after that stop to the end of the same minute); now when none has a stop.
 */
export function periodAfter(periods: EditedPeriod[], now: Dayjs): EditedPeriod {
  const stops = periods.map((period) => period.stop).filter(entered)
  const latest = stops.length > 0 ? Math.max(...stops.map(minuteOf)) : undefined
  const start = latest === undefined ? dayjs(minuteOf(now)) : dayjs(latest + MINUTE_MS)
  return { start, stop: start }
}

/** Minutes covered by the periods: each runs from its start minute to the end of its stop minute; an open one up to now. */
export function durationMinutes(periods: StoredPeriod[], now: Dayjs): number {
  return periods.reduce((total, { start, stop }) => total + (minuteOf(stop ?? now) - minuteOf(start)) / MINUTE_MS + 1, 0)
}

/** Hours and the minutes left, for "2 h 05 min". */
export function hoursAndMinutes(minutes: number): { hours: number; minutes: number } {
  return { hours: Math.floor(minutes / 60), minutes: minutes % 60 }
}

/** The periods as the server takes them: sorted by start, at the minute, as ISO instants (those with both bounds). */
export function periodsToSave(periods: EditedPeriod[]): { start: string; stop: string }[] {
  const complete = periodsByStart(periods).filter((index) => entered(periods[index].stop))
  return complete.map((index) => ({
    start: dayjs(minuteOf(periods[index].start as Dayjs)).toISOString(),
    stop: dayjs(minuteOf(periods[index].stop as Dayjs)).toISOString(),
  }))
}

/** A period's bounds at the minute: what telling a change from the stored periods compares. */
const minutesKey = (periods: { start: Dayjs | string | null; stop?: Dayjs | string | null }[]) =>
  periods.map(({ start, stop }) => `${start ? minuteOf(start) : ''}-${stop ? minuteOf(stop) : ''}`).join(',')

/** Whether the edited periods differ (at the minute, in order of their starts) from the stored ones. */
export function periodsChanged(stored: StoredPeriod[], edited: EditedPeriod[]): boolean {
  if (edited.some((period) => !entered(period.start) || !entered(period.stop))) return true
  const sorted = periodsByStart(edited).map((index) => edited[index])
  return minutesKey(stored) !== minutesKey(sorted)
}

/** What identifies the periods whose tracked actions are listed: equal keys, equal lists. */
export const periodsKey = (periods: EditedPeriod[]) => minutesKey(periods)
