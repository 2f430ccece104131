import { describe, expect, it } from 'vitest'
import type { Subject } from './api'
import { EMPTY_FORM, formFromQuery, formFromSubject, savePayload, subjectSchema } from './subjectForm'

function problems(form: unknown): Record<string, string> {
  const result = subjectSchema.safeParse(form)
  return Object.fromEntries((result.error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]))
}

const complete = { ...EMPTY_FORM, name: 'Réglage du tour', cartographyId: 2, functionId: 12, activityId: 4 }

describe('subject form validation', () => {
  it('accepts a named subject with cartography, function and activity, sub-activity optional', () => {
    expect(problems(complete)).toEqual({})
    expect(problems({ ...complete, subActivityId: 5 })).toEqual({})
  })

  it('applies the general text rule to the name', () => {
    expect(problems({ ...complete, name: '' })).toEqual({ name: 'emptyFieldError' })
    expect(problems({ ...complete, name: '   ' })).toEqual({ name: 'emptyFieldError' })
    expect(problems({ ...complete, name: ' Réglage' })).toEqual({ name: 'beginEndWhitespaceError' })
  })

  it('requires cartography, function and activity with mustNotBeEmpty', () => {
    expect(problems(EMPTY_FORM)).toEqual({
      name: 'emptyFieldError',
      cartographyId: 'mustNotBeEmpty',
      functionId: 'mustNotBeEmpty',
      activityId: 'mustNotBeEmpty',
    })
  })
})

describe('subject form prefill', () => {
  it('takes cartography, function, activity and subactivity from the query', () => {
    expect(formFromQuery(new URLSearchParams('cartography=2&function=12&activity=4&subactivity=5'))).toEqual({
      ...EMPTY_FORM,
      cartographyId: 2,
      functionId: 12,
      activityId: 4,
      subActivityId: 5,
    })
  })

  it('leaves out what the query lacks or what is not an id', () => {
    expect(formFromQuery(new URLSearchParams('cartography=2&function=x&activity='))).toEqual({ ...EMPTY_FORM, cartographyId: 2 })
  })

  const context = (type: 'site' | 'cartography' | 'function' | 'activity', id: number) => ({ id, code: `C${id}`, name: `N${id}`, type })
  const subject = (activityId: number, activityPath: number[]) =>
    ({
      name: 'Réglage du tour',
      type: 'quality',
      cartographyId: 2,
      functionId: 12,
      activityId,
      contexts: [
        [context('site', 1), context('cartography', 2), context('function', 12)],
        [context('site', 1), context('cartography', 2), ...activityPath.map((id) => context('activity', id))],
      ],
    }) as unknown as Subject

  it('splits the activity of a subject into activity and sub-activity', () => {
    expect(formFromSubject(subject(5, [4, 5]), { keepName: true })).toEqual({
      name: 'Réglage du tour',
      type: 'quality',
      cartographyId: 2,
      functionId: 12,
      activityId: 4,
      subActivityId: 5,
    })
    expect(formFromSubject(subject(4, [4]), { keepName: true })).toMatchObject({ activityId: 4, subActivityId: null })
  })

  it('empties the name for CreateFromSubject', () => {
    expect(formFromSubject(subject(4, [4]), { keepName: false }).name).toBe('')
  })

  it('saves the sub-activity as the activity when one is chosen', () => {
    expect(savePayload({ ...complete, subActivityId: 5 })).toEqual({ name: 'Réglage du tour', type: 'risk', cartographyId: 2, functionId: 12, activityId: 5 })
    expect(savePayload(complete).activityId).toBe(4)
  })
})
