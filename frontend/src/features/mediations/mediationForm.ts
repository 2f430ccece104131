import dayjs, { type Dayjs } from 'dayjs'
import { z } from 'zod'
import type { GroupRef } from '../../api/types'
import { organizationTimeZone } from '../../lib/dates'
import { fromOrganizationWallClock, inOrganizationZone } from '../../lib/organizationClock'
import { EMPTY_FIELD, optionalText, text } from '../../lib/text'
import type { Mediation, MediationSave, Person } from './api'

/** Message keys of the mediation rules (spec 1 §5), shared with the server's error codes. */
export const MUST_NOT_BE_EMPTY = 'mustNotBeEmpty'
export const MEDIATOR_CANT_BE_PARTICIPANT = 'mediatorCantBeParticipant'
export const LESS_THAN_MIN = 'errors.lessThanMin'
export const GREATER_THAN_MAX = 'errors.greaterThanMax'
export const PARSE = 'errors.parse'

/** The latest date the date input accepts: the start of 2099-12-31 on the organisation's clocks. */
export const maxDate = (): Dayjs => dayjs.tz('2099-12-31', organizationTimeZone())

/** The date and the time are read in the organisation's zone, whatever the browser's (lib/dates). */
export interface MediationForm {
  title: string
  description: string
  /** The scheduling day; null for a mediation not scheduled yet. */
  date: Dayjs | null
  /** The scheduling time (hours and minutes) on that day. */
  time: Dayjs | null
  mediator: Person | null
  participants: Person[]
  visibleByGroups: GroupRef[]
  visibleByPersons: Person[]
}

export type FormField = keyof MediationForm

/** Which fields the user may change (spec 1 §6): the `can.fields` of the mediation, by form field. */
export interface EditableFields {
  title: boolean
  description: boolean
  schedulingDate: boolean
  mediator: boolean
  participants: boolean
  visibleByGroups: boolean
  visibleByPersons: boolean
}

export const ALL_EDITABLE: EditableFields = {
  title: true,
  description: true,
  schedulingDate: true,
  mediator: true,
  participants: true,
  visibleByGroups: true,
  visibleByPersons: true,
}

/** The form field where a server error on a payload field is shown (the date's, on the date or the time). */
export function formFieldOf(payloadField: string, form: MediationForm, now: Dayjs): FormField | undefined {
  if (payloadField === 'schedulingDate') return form.date?.isValid() && form.date.isSame(now, 'day') ? 'time' : 'date'
  const field = payloadField.split('.')[0]
  return (['title', 'description', 'mediator', 'participants', 'visibleByGroups', 'visibleByPersons'] as string[]).includes(field)
    ? (field as FormField)
    : undefined
}

/**
 * The scheduling instant the form holds: the date at the time's hours and minutes on the organisation's
 * clocks; null when no date is set.
 */
export function scheduleOf(form: Pick<MediationForm, 'date' | 'time'>): Dayjs | null {
  if (!form.date?.isValid() || !form.time?.isValid()) return null
  return fromOrganizationWallClock(form.date, form.time)
}

interface Rules {
  /** The current time in the organisation's zone, refreshed every minute by the form. */
  now: Dayjs
  editable: EditableFields
  /** The stored scheduling date of an edited mediation: the date rules apply only when it changes. */
  original?: string | null
}

const unchecked = z.any()

/**
 * The mediation form's rules (spec 1 §5): the title follows the general text rule, a mediator and
 * participants are required and the mediator is not among them; a date set (or changed) is not
 * before today, and today it is at least one minute after now. Fields the user may not change are
 * not checked: nothing could be done about their errors.
 */
export function mediationSchema({ now, editable, original }: Rules) {
  return z
    .object({
      title: editable.title ? text() : unchecked,
      description: editable.description ? optionalText() : unchecked,
      date: unchecked,
      time: unchecked,
      mediator: unchecked,
      participants: unchecked,
      visibleByGroups: unchecked,
      visibleByPersons: unchecked,
    })
    .superRefine((form, ctx) => {
      const issue = (path: FormField, message: string) => ctx.addIssue({ code: 'custom', path: [path], message })
      const values = form as MediationForm
      if (editable.mediator && values.mediator === null) issue('mediator', MUST_NOT_BE_EMPTY)
      if (editable.participants) {
        if (values.participants.length === 0) issue('participants', MUST_NOT_BE_EMPTY)
        else if (values.mediator && values.participants.some((person) => person.id === values.mediator?.id)) {
          issue('participants', MEDIATOR_CANT_BE_PARTICIPANT)
        }
      }
      if (editable.schedulingDate) checkSchedule(values, now, original, issue)
    })
}

function checkSchedule(form: MediationForm, now: Dayjs, original: string | null | undefined, issue: (path: FormField, message: string) => void) {
  const { date, time } = form
  if (date === null) return
  if (!date.isValid()) return issue('date', PARSE)
  if (date.isAfter(maxDate(), 'day')) return issue('date', GREATER_THAN_MAX)
  if (time === null) return issue('time', EMPTY_FIELD)
  if (!time.isValid()) return issue('time', PARSE)
  const schedule = scheduleOf(form)
  if (original && schedule?.isSame(dayjs(original), 'minute')) return
  if (date.isBefore(now, 'day')) return issue('date', LESS_THAN_MIN)
  if (schedule && schedule.isBefore(now.add(1, 'minute'))) issue('time', LESS_THAN_MIN)
}

/** 'Create and start' asks for the title only. */
export const startSchema = z.object({ title: text() })

/**
 * NewMediation's defaults: the user as mediator (spec 1 §9), scheduled at the first full hour of the
 * organisation's clocks at least a quarter of an hour away. Spec 1 §9's start of today is always
 * refused (errors.lessThanMin); this one passes, with time left to fill in the form.
 */
export function newForm(user: Person, now: Dayjs): MediationForm {
  const schedule = inOrganizationZone(now.add(75, 'minute')).startOf('hour')
  return {
    title: '',
    description: '',
    date: schedule.startOf('day'),
    time: schedule,
    mediator: user,
    participants: [],
    visibleByGroups: [],
    visibleByPersons: [],
  }
}

export function formFromMediation(mediation: Mediation): MediationForm {
  const schedule = mediation.schedulingDate ? inOrganizationZone(mediation.schedulingDate) : null
  return {
    title: mediation.title,
    description: mediation.description,
    date: schedule?.startOf('day') ?? null,
    time: schedule,
    mediator: mediation.mediator ?? null,
    participants: mediation.participants,
    visibleByGroups: mediation.visibleByGroups,
    visibleByPersons: mediation.visibleByPersons,
  }
}

/** The save payload; an untouched scheduling date is sent back as stored. */
export function savePayload(form: MediationForm, original?: string | null): MediationSave {
  const schedule = scheduleOf(form)
  const unchanged = original && schedule?.isSame(dayjs(original), 'minute')
  return {
    title: form.title,
    description: form.description,
    schedulingDate: unchanged ? original : (schedule?.toISOString() ?? null),
    mediator: form.mediator?.id ?? null,
    participants: form.participants.map((person) => person.id),
    visibleByGroups: form.visibleByGroups.map((group) => group.id),
    visibleByPersons: form.visibleByPersons.map((person) => person.id),
  }
}
