import dayjs from 'dayjs'
import { describe, expect, it } from 'vitest'
import {
  canDeletePeriod,
  commentOrActionNeeded,
  durationMinutes,
  type EditedPeriod,
  hoursAndMinutes,
  periodAfter,
  periodErrors,
  periodsChanged,
  periodsToSave,
} from './reportRules'

const NOW = dayjs('2026-03-10T12:00:30Z')
const at = (time: string) => dayjs(`2026-03-10T${time}Z`)
const period = (start: string, stop: string): EditedPeriod => ({ start: at(start), stop: at(stop) })

describe('tracking period rules', () => {
  it('accepts ordered periods that do not overlap', () => {
    expect(periodErrors([period('09:00:00', '09:30:00'), period('09:31:00', '10:00:00')], NOW)).toEqual([{}, {}])
  })

  it('refuses a stop before its start, on the stop, but not a period of one minute', () => {
    expect(periodErrors([period('09:30:00', '09:29:00')], NOW)).toEqual([{ stop: 'errors.lessThanMin' }])
    expect(periodErrors([period('09:30:00', '09:30:00')], NOW)).toEqual([{}])
    // Seconds do not count: both are in minute 09:30.
    expect(periodErrors([period('09:30:40', '09:30:10')], NOW)).toEqual([{}])
  })

  it('refuses a stop after the current minute, on the stop', () => {
    expect(periodErrors([period('11:00:00', '12:01:00')], NOW)).toEqual([{ stop: 'errors.greaterThanMax' }])
    expect(periodErrors([period('11:00:00', '12:00:59')], NOW)).toEqual([{}])
  })

  it('shows an overlap on the start of the period that begins later, whatever the order of the list', () => {
    expect(periodErrors([period('09:00:00', '09:30:00'), period('09:30:00', '10:00:00')], NOW)).toEqual([
      {},
      { start: 'trackingPeriodDateConflict' },
    ])
    expect(periodErrors([period('09:20:00', '10:00:00'), period('09:00:00', '09:30:00')], NOW)).toEqual([
      { start: 'trackingPeriodDateConflict' },
      {},
    ])
    // A period inside another one.
    expect(periodErrors([period('09:00:00', '11:00:00'), period('09:10:00', '09:20:00'), period('11:30:00', '11:40:00')], NOW)).toEqual([
      {},
      { start: 'trackingPeriodDateConflict' },
      {},
    ])
  })

  it('asks for both bounds and tells an unreadable one', () => {
    const errors = periodErrors(
      [
        { start: null, stop: at('09:00:00') },
        { start: dayjs('not a date'), stop: null },
      ],
      NOW,
    )
    expect(errors).toEqual([{ start: 'mustNotBeEmpty' }, { start: 'errors.parse', stop: 'mustNotBeEmpty' }])
  })

  it('keeps at least one period', () => {
    expect(canDeletePeriod([period('09:00:00', '09:10:00')])).toBe(false)
    expect(canDeletePeriod([period('09:00:00', '09:10:00'), period('10:00:00', '10:10:00')])).toBe(true)
  })

  it('adds a one-minute period just after the latest stop', () => {
    const added = periodAfter([period('10:00:00', '10:30:00'), period('09:00:00', '09:10:00')], NOW)
    expect(added.start?.toISOString()).toBe('2026-03-10T10:31:00.000Z')
    expect(added.stop?.toISOString()).toBe('2026-03-10T10:31:00.000Z')
  })

  it('sends the periods sorted by start, at the minute', () => {
    expect(periodsToSave([period('10:00:20', '10:30:50'), period('09:00:00', '09:10:00')])).toEqual([
      { start: '2026-03-10T09:00:00.000Z', stop: '2026-03-10T09:10:00.000Z' },
      { start: '2026-03-10T10:00:00.000Z', stop: '2026-03-10T10:30:00.000Z' },
    ])
    // A period still running (no stop) has nothing to send yet.
    expect(periodsToSave([{ start: at('09:00:00'), stop: null }])).toEqual([])
  })

  it('tells a change of the periods at the minute, not a new order or seconds', () => {
    const stored = [
      { start: '2026-03-10T09:00:00Z', stop: '2026-03-10T09:10:00Z' },
      { start: '2026-03-10T10:00:00Z', stop: '2026-03-10T10:30:00Z' },
    ]
    expect(periodsChanged(stored, [period('10:00:00', '10:30:45'), period('09:00:00', '09:10:00')])).toBe(false)
    expect(periodsChanged(stored, [period('09:00:00', '09:11:00'), period('10:00:00', '10:30:00')])).toBe(true)
    expect(periodsChanged(stored, [period('09:00:00', '09:10:00')])).toBe(true)
    expect(periodsChanged(stored, [period('09:00:00', '09:10:00'), { start: at('10:00:00'), stop: null }])).toBe(true)
  })
})

describe('duration', () => {
  it('counts each period from its start minute to the end of its stop minute', () => {
    const periods = [
      { start: '2026-03-10T09:00:00Z', stop: '2026-03-10T09:00:00Z' },
      { start: '2026-03-10T10:00:00Z', stop: '2026-03-10T11:29:00Z' },
    ]
    expect(durationMinutes(periods, NOW)).toBe(1 + 90)
  })

  it('counts an open period up to now', () => {
    expect(durationMinutes([{ start: '2026-03-10T11:50:00Z', stop: null }], NOW)).toBe(11)
  })

  it('splits minutes into hours and minutes', () => {
    expect(hoursAndMinutes(125)).toEqual({ hours: 2, minutes: 5 })
    expect(hoursAndMinutes(59)).toEqual({ hours: 0, minutes: 59 })
  })
})

describe('report content', () => {
  it('needs a comment or a chosen action', () => {
    expect(commentOrActionNeeded('  \n ', 0)).toBe(true)
    expect(commentOrActionNeeded('Agreed', 0)).toBe(false)
    expect(commentOrActionNeeded('', 1)).toBe(false)
  })
})
