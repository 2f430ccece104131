import { z } from 'zod'
import { BEGIN_END_WHITESPACE, EMPTY_FIELD, text } from '../../lib/text'
import type { MapContextEntry, SpotItemType } from '../../components/mapTree/api'
import { MAX_THRESHOLD } from '../../components/ThresholdSlider'
import type { Module, ModuleItemIn, ModuleItemOut, ModuleSave, ModuleType } from './api'

/** Message keys of the module rules (spec 2 §5), shared with the server's error codes. */
export const NON_ZERO_NUMERIC = 'nonZeroNumericValueExpected'
export const NOT_A_VALID_URL = 'notAValidUrl'
export const LMS_ELEMENT_NOT_FOUND = 'lmsElementNotFound'

export const MODULE_TYPES = ['training', 'qualification', 'other'] as const satisfies readonly ModuleType[]
export const DURATION_UNITS = ['hours', 'minutes'] as const
export type DurationUnit = (typeof DURATION_UNITS)[number]
export const ELEMENT_KINDS = ['spot', 'mediation', 'url', 'lms'] as const
export type ElementKind = (typeof ELEMENT_KINDS)[number]
/** How a learning-platform element opens its unit: Normal records results, Browse and Review do not. */
export const LAUNCH_MODES = ['Normal', 'Browse', 'Review'] as const
export type LaunchMode = (typeof LAUNCH_MODES)[number]

/** The pass threshold's scale and default (spec 2 §9). */
export const DEFAULT_THRESHOLD = 10

/**
 * An element of the form's list, with what the list shows of it. `key` tells the rows apart while
 * they move (a new element has no id of its own).
 */
export type FormElement = { key: string } & (
  | { type: 'spot'; spotItemType: SpotItemType; spotItemId: number; name: string | null; context: MapContextEntry[]; readable: boolean }
  | { type: 'mediation'; title: string; description: string }
  | { type: 'url'; url: string; label: string }
  | { type: 'lms'; lmsCourseId: number | null; courseId: number | null; name: string | null; lmsType: 'resource' | 'quiz' | null; found: boolean; launchMode: LaunchMode }
)

export interface ModuleForm {
  name: string
  moduleType: ModuleType
  goals: string
  /** Digits as typed; empty for "not defined". */
  duration: string
  durationUnit: DurationUnit
  reference: string | null
  periodic: boolean
  /** Months, as typed. */
  periodicity: string
  passThreshold: number
  elements: FormElement[]
}

let keys = 0
/** A key for an element new to the list. */
export const newKey = () => `element-${++keys}`

/** A count in digits: no sign, no leading zero, at least 1 (nonZeroNumericValueExpected). */
export const isNonZeroCount = (value: string) => /^[1-9]\d*$/.test(value)
/** The longest duration (a thousand hours) and periodicity (a hundred years) the server accepts. */
export const MAX_DURATION_MINUTES = 60 * 1000
export const MAX_PERIODICITY_MONTHS = 1200


/** An http or https address with a host, as the server checks it (notAValidUrl). */
export function isValidUrl(value: string): boolean {
  if (value !== value.trim() || value === '') return false
  try {
    const url = new URL(value)
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== ''
  } catch {
    return false
  }
}

/** The general text rule's message for a required text, or undefined when it holds. */
export function textError(value: string): string | undefined {
  if (value.trim() === '') return EMPTY_FIELD
  if (value !== value.trim()) return BEGIN_END_WHITESPACE
  return undefined
}

/** The url element's message for its url, or undefined. */
export function urlError(value: string): string | undefined {
  if (value.trim() === '') return EMPTY_FIELD
  if (value !== value.trim()) return BEGIN_END_WHITESPACE
  return isValidUrl(value) ? undefined : NOT_A_VALID_URL
}

/** The Test button of a url element shows once the url and the label are both valid (spec 2 §2). */
export const canTestUrl = (url: string, label: string) => urlError(url) === undefined && textError(label) === undefined

/** Minutes stored for a duration typed in a unit: hours are 60 × the number (spec 2 §5); empty is 0. */
export function durationMinutes(duration: string, unit: DurationUnit): number {
  if (duration === '') return 0
  return unit === 'hours' ? Number(duration) * 60 : Number(duration)
}

/** A stored duration as the form shows it: whole hours in hours, anything else in minutes; 0 is empty. */
export function durationFields(minutes: number): { duration: string; durationUnit: DurationUnit } {
  if (minutes <= 0) return { duration: '', durationUnit: 'hours' }
  return minutes % 60 === 0 ? { duration: String(minutes / 60), durationUnit: 'hours' } : { duration: String(minutes), durationUnit: 'minutes' }
}

/**
 * The module form (spec 2 §5): name and goals follow the general text rule; duration and, when the
 * switch is on, periodicity are digits without a leading zero, at least 1 (empty duration: not defined);
 * pass threshold 0 to 10 by 1; at least one element.
 */
export const moduleSchema = z
  .object({
    name: text(),
    moduleType: z.enum(MODULE_TYPES),
    goals: text(),
    duration: z.string(),
    durationUnit: z.enum(DURATION_UNITS),
    reference: z.string().nullable(),
    periodic: z.boolean(),
    periodicity: z.string(),
    passThreshold: z.number().int().min(0).max(MAX_THRESHOLD),
    elements: z.array(z.custom<FormElement>()),
  })
  .superRefine((form, ctx) => {
    if (form.duration !== '' && !(isNonZeroCount(form.duration) && durationMinutes(form.duration, form.durationUnit) <= MAX_DURATION_MINUTES)) {
      ctx.addIssue({ code: 'custom', path: ['duration'], message: NON_ZERO_NUMERIC })
    }
    if (form.periodic && !(isNonZeroCount(form.periodicity) && Number(form.periodicity) <= MAX_PERIODICITY_MONTHS)) ctx.addIssue({ code: 'custom', path: ['periodicity'], message: NON_ZERO_NUMERIC })
    if (form.elements.length === 0) ctx.addIssue({ code: 'custom', path: ['elements'], message: EMPTY_FIELD })
    // An element of a course removed from the platform cannot be saved again: it is replaced or removed.
    else if (form.elements.some((element) => element.type === 'lms' && (!element.found || element.lmsCourseId === null))) {
      ctx.addIssue({ code: 'custom', path: ['elements'], message: LMS_ELEMENT_NOT_FOUND })
    }
  })

/** NewTrainingModule's defaults (spec 2 §9): type other, no duration, not periodic, threshold 10. */
export const EMPTY_FORM: ModuleForm = {
  name: '',
  moduleType: 'other',
  goals: '',
  duration: '',
  durationUnit: 'hours',
  reference: null,
  periodic: false,
  periodicity: '',
  passThreshold: DEFAULT_THRESHOLD,
  elements: [],
}

function elementOf(item: ModuleItemOut): FormElement {
  const key = newKey()
  switch (item.type) {
    case 'spot':
      return { key, type: 'spot', spotItemType: item.spotItemType, spotItemId: item.spotItemId, name: item.name ?? null, context: item.context.map(({ type, id, name }) => ({ type: type as SpotItemType, id, name })), readable: item.readable }
    case 'mediation':
      return { key, type: 'mediation', title: item.title, description: item.description }
    case 'url':
      return { key, type: 'url', url: item.url, label: item.label }
    case 'lms':
      return { key, type: 'lms', lmsCourseId: item.lmsCourseId ?? null, courseId: item.courseId ?? null, name: item.name ?? null, lmsType: item.lmsType ?? null, found: item.found, launchMode: item.launchMode }
  }
}

/** The form of an existing module (EditTrainingModule, CreateFromTrainingModule: the same fields). */
export function formFromModule(module: Module): ModuleForm {
  return {
    name: module.name,
    moduleType: module.moduleType,
    goals: module.goals,
    ...durationFields(module.estimatedDuration),
    reference: module.reference?.code ?? null,
    periodic: module.periodicity > 0,
    periodicity: module.periodicity > 0 ? String(module.periodicity) : '',
    passThreshold: module.passThreshold,
    elements: module.moduleItems.map(elementOf),
  }
}

function itemOf(element: FormElement): ModuleItemIn {
  switch (element.type) {
    case 'spot':
      return { type: 'spot', spotItemType: element.spotItemType, spotItemId: element.spotItemId }
    case 'mediation':
      return { type: 'mediation', title: element.title, description: element.description }
    case 'url':
      return { type: 'url', url: element.url, label: element.label }
    case 'lms':
      // A missing item never gets here (the form's rule above).
      return { type: 'lms', lmsCourseId: element.lmsCourseId ?? 0, launchMode: element.launchMode }
  }
}

/** The save payload: the duration in minutes, the periodicity 0 when not periodic. */
export function savePayload(form: ModuleForm): ModuleSave {
  return {
    name: form.name,
    moduleType: form.moduleType,
    goals: form.goals,
    estimatedDuration: durationMinutes(form.duration, form.durationUnit),
    reference: form.reference,
    periodicity: form.periodic ? Number(form.periodicity) : 0,
    passThreshold: form.passThreshold,
    moduleItems: form.elements.map(itemOf),
  }
}

/** The list with the element at `index` moved one place up (-1) or down (+1); unchanged at an end. */
export function moveElement<T>(elements: readonly T[], index: number, by: -1 | 1): T[] {
  const target = index + by
  if (index < 0 || index >= elements.length || target < 0 || target >= elements.length) return [...elements]
  const moved = [...elements]
  ;[moved[index], moved[target]] = [moved[target], moved[index]]
  return moved
}

/** The form field where a server error on a payload field is shown: moduleItems[2].url → elements. */
export function formFieldOf(payloadField: string): keyof ModuleForm | undefined {
  const root = payloadField.split(/[.[]/)[0]
  switch (root) {
    case 'name':
    case 'goals':
    case 'moduleType':
    case 'reference':
    case 'passThreshold':
      return root
    case 'estimatedDuration':
      return 'duration'
    case 'periodicity':
      return 'periodicity'
    case 'moduleItems':
      return 'elements'
    default:
      return undefined
  }
}

/** The index of the element a payload error names (moduleItems[2].url → 2), if any. */
export function elementIndexOf(payloadField: string): number | undefined {
  const match = /^moduleItems\[(\d+)\]/.exec(payloadField)
  return match ? Number(match[1]) : undefined
}
