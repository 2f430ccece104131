import dayjs from 'dayjs'
import { describe, expect, it } from 'vitest'
import {
  canDeletePeriod,
  durationMinutes,
  type EditedPeriod,
  hoursAndMinutes,
  checkedErrors,
  entryErrors,
  periodAfter,
  periodsChanged,
  periodsToCheck,
  periodsToSave,
} from './trackingPeriods'

const NOW = dayjs('2026-03-10T12:00:30Z')
const at = (time: string) => dayjs(`2026-03-10T${time}Z`)
const period = (start: string, stop: string): EditedPeriod => ({ start: at(start), stop: at(stop) })

describe('tracking periods as edited', () => {
  it('asks for both bounds and tells an unreadable one', () => {
    const errors = entryErrors([
      { start: null, stop: at('09:00:00') },
      { start: dayjs('not a date'), stop: null },
      period('09:30:00', '09:29:00'),
    ])
    // Whether entered periods may be saved is the server's to say: none of it here.
    expect(errors).toEqual([{ start: 'mustNotBeEmpty' }, { start: 'errors.parse', stop: 'mustNotBeEmpty' }, {}])
  })

  it('asks the server about the entered periods, at the minute, in the order of the list', () => {
    const asked = periodsToCheck([period('10:00:20', '10:30:50'), { start: null, stop: at('09:00:00') }, period('09:00:00', '09:10:00')])
    expect(asked).toEqual({
      indexes: [0, 2],
      periods: [
        { start: '2026-03-10T10:00:00.000Z', stop: '2026-03-10T10:30:00.000Z' },
        { start: '2026-03-10T09:00:00.000Z', stop: '2026-03-10T09:10:00.000Z' },
      ],
    })
  })

  it("puts the server's errors on the periods it was asked about", () => {
    const errors = checkedErrors(
      [
        { field: 'periods.1.start', code: 'trackingPeriodDateConflict' },
        { field: 'periods.0.stop', code: 'errors.greaterThanMax' },
        { field: 'periods', code: 'mustNotBeEmpty' },
      ],
      [0, 2],
      3,
    )
    expect(errors).toEqual([{ stop: 'errors.greaterThanMax' }, {}, { start: 'trackingPeriodDateConflict' }])
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
