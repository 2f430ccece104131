import dayjs, { type Dayjs } from 'dayjs'
import { z } from 'zod'
import { EMPTY_FIELD, text } from '../../lib/text'
import { MAX_DATE } from '../../components/DateInput'
import { MAX_THRESHOLD } from '../../components/ThresholdSlider'
import type { Path, PathFieldsCan, PathSave } from './api'

/** Message keys of the path rules (spec 2 §5 and §8), shared with the server's error codes. */
export const DEFINE_LEARNER = 'defineAtLeastOneLearnerOrGroup'
export const CREATOR_CANT_BE_LEARNER = 'creatorCantBeLearner'
export const LEARNER_CANT_BE_REFERENT = 'learnerCantBeReferent'
export const DATES_ERROR = 'trainingPathDatesError'
export const PARSE = 'errors.parse'

/** The latest date the date inputs accept. */

/** A user or a group, as the pickers show and hold it. */
export interface Named {
  id: number
  name: string
}

/** An assigned module of the form; `key` names its row while it moves. */
export interface FormModule {
  key: string
  module: Named | null
  referents: Named[]
  startDate: Dayjs | null
  stopDate: Dayjs | null
}

export interface PathForm {
  /** New paths only: one path per learner, the groups' members included. */
  learners: Named[]
  learnerGroups: Named[]
  title: string
  /** A path reference's code. */
  reference: string | null
  startDate: Dayjs | null
  stopDate: Dayjs | null
  passThreshold: number
  visibleByPersons: Named[]
  visibleByGroups: Named[]
  modules: FormModule[]
}

let lastKey = 0
export const newKey = () => `module-${(lastKey += 1)}`

interface Rules {
  /** Today, in the user's time zone. */
  today: Dayjs
  /** The signed-in user, who may not be a learner of the paths they create. */
  creatorId: number
  /** New paths choose learners; an edited one shows its learner, who may not be a referent. */
  learnerIds?: number[]
  /**
   * The fields the server lets change (an edited path's can.fields; a new path: every field). The rules
   * of a field it does not let change are not checked: its value is the path's, already accepted.
   */
  fields?: PathFieldsCan
}

const validDay = (value: Dayjs | null): value is Dayjs => value !== null && value.isValid()

/**
 * The latest start date: the stop date (spec 2 §5). The earliest stop date: the end of today or the
 * start date, whichever is later, while notAccepted; the start date otherwise.
 */
export function dateLimits(form: Pick<PathForm, 'startDate' | 'stopDate'>, today: Dayjs, notAccepted: boolean) {
  const start = validDay(form.startDate) ? form.startDate : undefined
  const stop = validDay(form.stopDate) ? form.stopDate : undefined
  const minStop = notAccepted ? (start && start.isAfter(today, 'day') ? start : today) : start
  return { maxStart: stop ?? MAX_DATE, minStop }
}

/** Whether the path's dates are valid, which adding a module needs (else trainingPathDatesError). */
export function pathDatesValid(form: Pick<PathForm, 'startDate' | 'stopDate'>, today: Dayjs): boolean {
  const { startDate, stopDate } = form
  return validDay(startDate) && validDay(stopDate) && !stopDate.isBefore(startDate, 'day') && !stopDate.isBefore(today, 'day')
}

/**
 * The path form's rules (spec 2 §5): a title; at least one learner or group, the creator not among
 * them; at least one module, each with a module and referents, none of them a learner; the dates
 * (stop not before start nor, while notAccepted, before today; each module's within the path's).
 */
export function pathSchema({ today, creatorId, learnerIds, fields }: Rules) {
  const may = (field: keyof PathFieldsCan) => fields === undefined || fields[field]
  return z
    .object({ title: may('title') ? text() : z.any() })
    .passthrough()
    .superRefine((raw, ctx) => {
      const form = raw as unknown as PathForm
      const issue = (path: (string | number)[], message: string) => ctx.addIssue({ code: 'custom', path, message })
      const learners = learnerIds ?? form.learners.map((learner) => learner.id)
      if (learnerIds === undefined) {
        if (form.learners.length === 0 && form.learnerGroups.length === 0) issue(['learners'], DEFINE_LEARNER)
        else if (form.learners.some((learner) => learner.id === creatorId)) issue(['learners'], CREATOR_CANT_BE_LEARNER)
      }
      if (may('referents')) {
        form.modules.forEach((row, index) => {
          if (row.referents.length === 0) issue(['modules', index, 'referents'], EMPTY_FIELD)
          else if (row.referents.some((referent) => learners.includes(referent.id))) issue(['modules', index, 'referents'], LEARNER_CANT_BE_REFERENT)
        })
      }
      const dates = may('startDate') || may('stopDate') ? checkPathDates(form, today, issue) : undefined
      if (!may('assignedModules')) return
      if (form.modules.length === 0) issue(['modules'], EMPTY_FIELD)
      form.modules.forEach((row, index) => {
        if (row.module === null) issue(['modules', index, 'module'], EMPTY_FIELD)
        checkModuleDates(row, dates, today, (field, message) => issue(['modules', index, field], message))
      })
    })
}

function checkPathDates(form: PathForm, today: Dayjs, issue: (path: string[], message: string) => void): { start: Dayjs; stop: Dayjs } | undefined {
  const { startDate, stopDate } = form
  let valid = true
  for (const [field, value] of [['startDate', startDate], ['stopDate', stopDate]] as const) {
    if (value === null) issue([field], EMPTY_FIELD)
    else if (!value.isValid()) issue([field], PARSE)
    else if (value.isAfter(MAX_DATE, 'day')) issue([field], DATES_ERROR)
    else continue
    valid = false
  }
  if (!valid || !validDay(startDate) || !validDay(stopDate)) return undefined
  if (stopDate.isBefore(startDate, 'day') || stopDate.isBefore(today, 'day')) {
    issue(['stopDate'], DATES_ERROR)
    return undefined
  }
  return { start: startDate, stop: stopDate }
}

function checkModuleDates(row: FormModule, path: { start: Dayjs; stop: Dayjs } | undefined, today: Dayjs, issue: (field: string, message: string) => void) {
  const { startDate, stopDate } = row
  if (startDate === null) issue('startDate', EMPTY_FIELD)
  else if (!startDate.isValid()) issue('startDate', PARSE)
  else if (path && (startDate.isBefore(path.start, 'day') || startDate.isAfter(path.stop, 'day'))) issue('startDate', DATES_ERROR)
  if (stopDate === null) issue('stopDate', EMPTY_FIELD)
  else if (!stopDate.isValid()) issue('stopDate', PARSE)
  else if (path && (stopDate.isBefore(path.start, 'day') || stopDate.isAfter(path.stop, 'day'))) issue('stopDate', DATES_ERROR)
  else if (stopDate.isBefore(today, 'day') || (validDay(startDate) && stopDate.isBefore(startDate, 'day'))) issue('stopDate', DATES_ERROR)
}

/** NewTrainingPath's defaults (spec 2 §9): from today for a month, threshold 10, no module yet. */
export function newForm(today: Dayjs): PathForm {
  return {
    learners: [],
    learnerGroups: [],
    title: '',
    reference: null,
    startDate: today,
    stopDate: today.add(1, 'month'),
    passThreshold: MAX_THRESHOLD,
    visibleByPersons: [],
    visibleByGroups: [],
    modules: [],
  }
}

/** A new module row: the path's dates, no module nor referent chosen yet. */
export function newModule(form: Pick<PathForm, 'startDate' | 'stopDate'>): FormModule {
  return { key: newKey(), module: null, referents: [], startDate: form.startDate, stopDate: form.stopDate }
}

/** The form of an edited path, or of a new one created from it (then without its learner). */
export function formFromPath(path: Path): PathForm {
  return {
    learners: [],
    learnerGroups: [],
    title: path.title,
    reference: path.reference?.code ?? null,
    startDate: dayjs(path.startDate),
    stopDate: dayjs(path.stopDate),
    passThreshold: path.passThreshold,
    visibleByPersons: path.visibleByPersons,
    visibleByGroups: path.visibleByGroups,
    modules: path.assignedModules.map((assigned) => ({
      key: newKey(),
      module: { id: assigned.module.id, name: assigned.module.name },
      referents: assigned.referents,
      startDate: dayjs(assigned.startDate),
      stopDate: dayjs(assigned.stopDate),
    })),
  }
}

const day = (value: Dayjs | null) => (value?.isValid() ? value.format('YYYY-MM-DD') : '')

/** The save payload of the path's fields (the learners, for a new path, are the caller's). */
export function savePayload(form: PathForm): PathSave {
  return {
    title: form.title,
    reference: form.reference,
    startDate: day(form.startDate),
    stopDate: day(form.stopDate),
    passThreshold: form.passThreshold,
    visibleByPersons: form.visibleByPersons.map((person) => person.id),
    visibleByGroups: form.visibleByGroups.map((group) => group.id),
    assignedModules: form.modules.map((row) => ({
      moduleId: row.module?.id ?? null,
      referents: row.referents.map((referent) => referent.id),
      startDate: day(row.startDate) || null,
      stopDate: day(row.stopDate) || null,
    })),
  }
}

type FormPath = 'title' | 'reference' | 'learners' | 'learnerGroups' | 'startDate' | 'stopDate' | 'passThreshold' | 'visibleByPersons' | 'visibleByGroups' | 'modules' | `modules.${number}.${'module' | 'referents' | 'startDate' | 'stopDate'}`

const MODULE_FIELDS: Record<string, 'module' | 'referents' | 'startDate' | 'stopDate'> = { moduleId: 'module', referents: 'referents', startDate: 'startDate', stopDate: 'stopDate' }

/** The form field where a server error on a payload field is shown (assignedModules[2].referents on that row's referents). */
export function formFieldOf(payloadField: string): FormPath | undefined {
  // assignedModules[2].referents, or assignedModules.2.referents
  const row = /^assignedModules(?:\[(\d+)\]|\.(\d+))\.(\w+)/.exec(payloadField)
  if (row) {
    const field = MODULE_FIELDS[row[3]]
    return field ? `modules.${Number(row[1] ?? row[2])}.${field}` : 'modules'
  }
  if (payloadField.startsWith('assignedModules')) return 'modules'
  if (payloadField.startsWith('learnerIds')) return 'learners'
  if (payloadField.startsWith('learnerGroupIds')) return 'learnerGroups'
  const known = ['title', 'reference', 'startDate', 'stopDate', 'passThreshold', 'visibleByPersons', 'visibleByGroups'] as const
  return (known as readonly string[]).includes(payloadField) ? (payloadField as FormPath) : undefined
}
