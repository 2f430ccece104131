import dayjs from 'dayjs'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { setOrganizationTimeZone } from '../../lib/dates'
import { inOrganizationZone, organizationNow } from '../../lib/organizationClock'
import type { Mediation } from './api'
import {
  ALL_EDITABLE,
  formFieldOf,
  formFromMediation,
  type MediationForm,
  mediationSchema,
  newForm,
  savePayload,
  scheduleOf,
} from './mediationForm'

const NOW = dayjs(new Date(2026, 11, 1, 10, 0, 30))
const ME = { id: 3, name: 'Émilie Laurent' }
const PAUL = { id: 7, name: 'Paul Martin' }
const LEA = { id: 8, name: 'Léa Bernard' }

const valid: MediationForm = {
  title: 'Réglage du tour',
  description: 'Première ligne\nDeuxième ligne',
  date: NOW.add(1, 'day').startOf('day'),
  time: NOW.hour(9).minute(0),
  mediator: ME,
  participants: [PAUL, LEA],
  visibleByGroups: [],
  visibleByPersons: [],
}

/** The message keys the rules give, by field. */
function errors(form: Partial<MediationForm>, rules: Partial<Parameters<typeof mediationSchema>[0]> = {}) {
  const result = mediationSchema({ now: NOW, editable: ALL_EDITABLE, ...rules }).safeParse({ ...valid, ...form })
  return Object.fromEntries((result.error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]))
}

describe('the mediation form rules', () => {
  it('accept a complete form scheduled tomorrow', () => {
    expect(errors({})).toEqual({})
  })

  it('apply the general text rule to the title and the description', () => {
    expect(errors({ title: '  ' })).toEqual({ title: 'emptyFieldError' })
    expect(errors({ title: 'Réglage ', description: '\nligne' })).toEqual({ title: 'beginEndWhitespaceError', description: 'beginEndWhitespaceError' })
    expect(errors({ description: '' })).toEqual({})
  })

  it('require a mediator and participants, the mediator not among them', () => {
    expect(errors({ mediator: null, participants: [] })).toEqual({ mediator: 'mustNotBeEmpty', participants: 'mustNotBeEmpty' })
    expect(errors({ participants: [PAUL, ME] })).toEqual({ participants: 'mediatorCantBeParticipant' })
  })

  it('refuse a day before today', () => {
    expect(errors({ date: NOW.subtract(1, 'day').startOf('day') })).toEqual({ date: 'errors.lessThanMin' })
  })

  it('refuse, today, a time less than one minute after now', () => {
    const today = NOW.startOf('day')
    expect(errors({ date: today, time: NOW.hour(10).minute(1) })).toEqual({ time: 'errors.lessThanMin' })
    expect(errors({ date: today, time: NOW.hour(10).minute(0) })).toEqual({ time: 'errors.lessThanMin' })
    expect(errors({ date: today, time: NOW.hour(10).minute(2) })).toEqual({})
  })

  it('follow the time they are given', () => {
    const today = NOW.startOf('day')
    const form = { date: today, time: NOW.hour(10).minute(5) }
    expect(errors(form)).toEqual({})
    expect(errors(form, { now: NOW.add(5, 'minute') })).toEqual({ time: 'errors.lessThanMin' })
  })

  it('tell an unreadable date or time, a date past the maximum, a missing time', () => {
    expect(errors({ date: dayjs('not a date') })).toEqual({ date: 'errors.parse' })
    expect(errors({ time: dayjs('not a time') })).toEqual({ time: 'errors.parse' })
    expect(errors({ date: dayjs('2100-01-01') })).toEqual({ date: 'errors.greaterThanMax' })
    expect(errors({ time: null })).toEqual({ time: 'emptyFieldError' })
  })

  it('accept no date at all: the mediation is not scheduled', () => {
    expect(errors({ date: null, time: null })).toEqual({})
  })

  it('leave an untouched date of an existing mediation alone, but check a changed one', () => {
    const yesterday = NOW.subtract(1, 'day').hour(14).minute(0)
    const original = yesterday.toISOString()
    expect(errors({ date: yesterday.startOf('day'), time: yesterday }, { original })).toEqual({})
    expect(errors({ date: yesterday.startOf('day'), time: yesterday.minute(30) }, { original })).toEqual({ date: 'errors.lessThanMin' })
  })

  it('do not check the fields the user may not change', () => {
    const editable = { ...ALL_EDITABLE, title: false, participants: false, schedulingDate: false }
    expect(errors({ title: '', participants: [], date: NOW.subtract(2, 'day') }, { editable })).toEqual({})
  })
})

describe('a new mediation', () => {
  it('is scheduled at the first full hour a quarter of an hour away at least, with the user as mediator', () => {
    const form = newForm(ME, NOW)
    expect(form.mediator).toEqual(ME)
    expect(scheduleOf(form)?.toISOString()).toBe(NOW.hour(11).minute(0).second(0).toISOString())
    // Its schedule passes the rules: only the participants are left to choose.
    expect(errors({ ...form, title: 'Réglage' })).toEqual({ participants: 'mustNotBeEmpty' })
    expect(scheduleOf(newForm(ME, NOW.hour(10).minute(50)))?.format('HH:mm')).toBe('12:00')
  })

  it('is scheduled tomorrow when the next full hour is past midnight', () => {
    const late = NOW.hour(23).minute(30)
    const form = newForm(ME, late)
    expect(form.date?.format('YYYY-MM-DD')).toBe('2026-12-02')
    expect(scheduleOf(form)?.toISOString()).toBe(late.add(1, 'day').startOf('day').toISOString())
    expect(errors({ ...form, title: 'Réglage', participants: [PAUL] }, { now: late })).toEqual({})
  })
})

describe('the save payload', () => {
  it('sends ids and the schedule as an instant', () => {
    expect(savePayload({ ...valid, visibleByGroups: [{ id: 4, name: 'Qualité' }], visibleByPersons: [LEA] })).toEqual({
      title: 'Réglage du tour',
      description: 'Première ligne\nDeuxième ligne',
      schedulingDate: NOW.add(1, 'day').hour(9).minute(0).second(0).millisecond(0).toISOString(),
      mediator: 3,
      participants: [7, 8],
      visibleByGroups: [4],
      visibleByPersons: [8],
    })
  })

  it('sends no schedule without a date, and an untouched one as stored', () => {
    expect(savePayload({ ...valid, date: null }).schedulingDate).toBeNull()
    const stored = '2026-11-20T13:00:00Z'
    expect(savePayload({ ...valid, date: dayjs(stored).startOf('day'), time: dayjs(stored) }, stored).schedulingDate).toBe(stored)
  })
})

describe('server errors', () => {
  it('go on their field; the schedule on the time today, on the date otherwise', () => {
    expect(formFieldOf('participants', valid, NOW)).toBe('participants')
    expect(formFieldOf('participants.1', valid, NOW)).toBe('participants')
    expect(formFieldOf('schedulingDate', valid, NOW)).toBe('date')
    expect(formFieldOf('schedulingDate', { ...valid, date: NOW.startOf('day') }, NOW)).toBe('time')
    expect(formFieldOf('version', valid, NOW)).toBeUndefined()
  })
})

describe("the organisation's clocks", () => {
  afterEach(() => {
    vi.unstubAllEnvs()
    vi.useRealTimers()
    setOrganizationTimeZone(undefined)
  })

  /** The browser in Paris, the organisation elsewhere, at `now`. */
  function organisationIn(zone: string, now: string) {
    vi.stubEnv('TZ', 'Europe/Paris')
    setOrganizationTimeZone(zone)
    vi.useFakeTimers({ toFake: ['Date'], now: new Date(now) })
    return organizationNow()
  }

  const on = (moment: string) => ({ date: inOrganizationZone(moment).startOf('day'), time: inOrganizationZone(moment) })

  it("read a stored schedule as the organisation's day and time, and send it back as the same instant", () => {
    organisationIn('Pacific/Auckland', '2026-03-01T00:00:00Z')
    const stored = { ...valid, mediator: PAUL, schedulingDate: '2026-03-10T12:00:00Z' }
    const form = formFromMediation(stored as unknown as Mediation)
    expect(form.date?.format('YYYY-MM-DD')).toBe('2026-03-11')
    expect(form.time?.format('HH:mm')).toBe('01:00')
    expect(scheduleOf(form)?.toISOString()).toBe('2026-03-10T12:00:00.000Z')
  })

  it("start a new mediation at the organisation's next full hour", () => {
    const now = organisationIn('Asia/Kolkata', '2026-03-10T12:00:00Z')
    // 17:30 in Kolkata (UTC+5:30), 13:00 in Paris: the full hour is Kolkata's.
    const form = newForm(ME, now)
    expect(`${form.date?.format('YYYY-MM-DD')} ${form.time?.format('HH:mm')}`).toBe('2026-03-10 18:00')
    expect(scheduleOf(form)?.toISOString()).toBe('2026-03-10T12:30:00.000Z')
  })

  it("refuse a day before the organisation's today, even when it is still that day in the browser", () => {
    // 01:00 on 11 March in Auckland, 13:00 on 10 March in Paris.
    const now = organisationIn('Pacific/Auckland', '2026-03-10T12:00:00Z')
    const check = (form: Partial<MediationForm>) => errors(form, { now })
    expect(check(on('2026-03-10T10:00:00Z'))).toEqual({ date: 'errors.lessThanMin' })
    expect(check(on('2026-03-10T12:00:30Z'))).toEqual({ time: 'errors.lessThanMin' })
    expect(check(on('2026-03-10T20:30:00Z'))).toEqual({})
  })

  it("take the last day as the organisation's", () => {
    const now = organisationIn('America/New_York', '2026-03-10T12:00:00Z')
    expect(errors({ date: dayjs.tz('2099-12-31', 'America/New_York'), time: now }, { now })).toEqual({})
    expect(errors({ date: dayjs.tz('2100-01-01', 'America/New_York'), time: now }, { now })).toEqual({ date: 'errors.greaterThanMax' })
  })
})
