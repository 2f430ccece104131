import { z } from 'zod'
import { text } from '../../lib/text'
import type { Subject, SubjectSave } from './api'

export const MUST_NOT_BE_EMPTY = 'mustNotBeEmpty'
export const INVALID_VALUE = 'invalidValue'

const required = () =>
  z
    .number()
    .nullable()
    .refine((value): boolean => value !== null, MUST_NOT_BE_EMPTY)

/** The subject form (spec 1 §5): the name follows the general text rule; cartography, function and activity are required. */
export const subjectSchema = z.object({
  name: text(),
  type: z.enum(['risk', 'quality']),
  cartographyId: required(),
  functionId: required(),
  activityId: required(),
  subActivityId: z.number().nullable(),
})

export type SubjectForm = z.infer<typeof subjectSchema>

export const EMPTY_FORM: SubjectForm = { name: '', type: 'risk', cartographyId: null, functionId: null, activityId: null, subActivityId: null }

function idOf(value: string | null): number | null {
  return value !== null && /^\d+$/.test(value) ? Number(value) : null
}

/** NewSubject's prefill from the query: cartography, function, activity and subactivity ids. */
export function formFromQuery(query: URLSearchParams): SubjectForm {
  return {
    ...EMPTY_FORM,
    cartographyId: idOf(query.get('cartography')),
    functionId: idOf(query.get('function')),
    activityId: idOf(query.get('activity')),
    subActivityId: idOf(query.get('subactivity')),
  }
}

/**
 * The form of an existing subject: its activity path (top-level activity first) tells whether
 * its activity is a sub-activity. CreateFromSubject starts with an empty name.
 */
export function formFromSubject(subject: Subject, { keepName }: { keepName: boolean }): SubjectForm {
  const activities = subject.contexts.flat().filter((entry) => entry.type === 'activity')
  const top = activities[0]?.id ?? subject.activityId
  return {
    name: keepName ? subject.name : '',
    type: subject.type,
    cartographyId: subject.cartographyId,
    functionId: subject.functionId,
    activityId: top,
    subActivityId: top === subject.activityId ? null : subject.activityId,
  }
}

/** The save payload: the sub-activity when one is chosen, else the activity. */
export function savePayload(form: SubjectForm): SubjectSave {
  return {
    name: form.name,
    type: form.type,
    cartographyId: form.cartographyId,
    functionId: form.functionId,
    activityId: form.subActivityId ?? form.activityId,
  }
}
