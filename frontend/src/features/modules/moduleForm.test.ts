import { describe, expect, it } from 'vitest'
import type { Module } from './api'
import {
  canTestUrl,
  durationFields,
  EMPTY_FORM,
  elementIndexOf,
  type FormElement,
  formFieldOf,
  formFromModule,
  type ModuleForm,
  moduleSchema,
  moveElement,
  savePayload,
  urlError,
} from './moduleForm'

const MEDIATION: FormElement = { key: 'a', type: 'mediation', title: 'Walk the line', description: 'With the team leader' }
const URL_ELEMENT: FormElement = { key: 'b', type: 'url', url: 'https://example.org/guide', label: 'Guide' }
const SPOT: FormElement = { key: 'c', type: 'spot', spotItemType: 'function', spotItemId: 12, name: 'Operator', context: [], readable: true }

const valid: ModuleForm = { ...EMPTY_FORM, name: 'Lockout', goals: 'Isolate energies', elements: [MEDIATION] }

/** The message keys the form shows, by field. */
function errors(form: ModuleForm): Record<string, string> {
  const result = moduleSchema.safeParse(form)
  if (result.success) return {}
  return Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), issue.message]))
}

describe('the module form rules (spec 2 §5)', () => {
  it('starts as type other, threshold 10, not periodic, no duration (spec 2 §9)', () => {
    expect(EMPTY_FORM).toMatchObject({ moduleType: 'other', passThreshold: 10, periodic: false, duration: '' })
    expect(savePayload(valid)).toMatchObject({ estimatedDuration: 0, periodicity: 0, passThreshold: 10, moduleType: 'other' })
  })

  it('needs a name and goals under the general text rule', () => {
    expect(errors({ ...valid, name: '', goals: ' ' })).toMatchObject({ name: 'emptyFieldError', goals: 'emptyFieldError' })
    expect(errors({ ...valid, name: ' Lockout', goals: 'Isolate\n' })).toMatchObject({ name: 'beginEndWhitespaceError', goals: 'beginEndWhitespaceError' })
  })

  it.each(['0', '01', '-1', '1.5', '1 ', 'x', '1001'])('refuses the duration %j in hours', (duration) => {
    expect(errors({ ...valid, duration, durationUnit: 'hours' })).toEqual({ duration: 'nonZeroNumericValueExpected' })
  })

  it.each(['', '1', '90', '1000'])('accepts the duration %j in hours', (duration) => {
    expect(errors({ ...valid, duration })).toEqual({})
  })

  it('stores hours as 60 times the number, minutes as they are, empty as 0 (not defined)', () => {
    expect(savePayload({ ...valid, duration: '3', durationUnit: 'hours' }).estimatedDuration).toBe(180)
    expect(savePayload({ ...valid, duration: '45', durationUnit: 'minutes' }).estimatedDuration).toBe(45)
    expect(savePayload({ ...valid, duration: '' }).estimatedDuration).toBe(0)
  })

  it('shows a stored duration in whole hours when it is some, else in minutes', () => {
    expect(durationFields(180)).toEqual({ duration: '3', durationUnit: 'hours' })
    expect(durationFields(90)).toEqual({ duration: '90', durationUnit: 'minutes' })
    expect(durationFields(0)).toEqual({ duration: '', durationUnit: 'hours' })
  })

  it('checks the periodicity only when the periodic switch is on, and saves 0 when it is off', () => {
    expect(errors({ ...valid, periodic: true, periodicity: '' })).toEqual({ periodicity: 'nonZeroNumericValueExpected' })
    expect(errors({ ...valid, periodic: true, periodicity: '012' })).toEqual({ periodicity: 'nonZeroNumericValueExpected' })
    expect(errors({ ...valid, periodic: true, periodicity: '0' })).toEqual({ periodicity: 'nonZeroNumericValueExpected' })
    expect(errors({ ...valid, periodic: false, periodicity: 'abc' })).toEqual({})
    expect(savePayload({ ...valid, periodic: true, periodicity: '12' }).periodicity).toBe(12)
    expect(savePayload({ ...valid, periodic: false, periodicity: '12' }).periodicity).toBe(0)
  })

  it('keeps the pass threshold between 0 and 10 by whole steps', () => {
    expect(errors({ ...valid, passThreshold: 0 })).toEqual({})
    expect(errors({ ...valid, passThreshold: 10 })).toEqual({})
    expect(Object.keys(errors({ ...valid, passThreshold: 11 }))).toEqual(['passThreshold'])
    expect(Object.keys(errors({ ...valid, passThreshold: 2.5 }))).toEqual(['passThreshold'])
  })

  it('needs at least one element', () => {
    expect(errors({ ...valid, elements: [] })).toEqual({ elements: 'emptyFieldError' })
  })

  it('refuses to save again an element of a course removed from the platform', () => {
    const gone: FormElement = { key: 'd', type: 'lms', lmsCourseId: null, courseId: null, name: null, lmsType: null, found: false, launchMode: 'Normal' }
    expect(errors({ ...valid, elements: [MEDIATION, gone] })).toEqual({ elements: 'lmsElementNotFound' })
  })

  it('sends the elements in their order, each with its own fields', () => {
    const lms: FormElement = { key: 'e', type: 'lms', lmsCourseId: 31, courseId: 4, name: 'Quiz', lmsType: 'quiz', found: true, launchMode: 'Browse' }
    expect(savePayload({ ...valid, elements: [SPOT, MEDIATION, URL_ELEMENT, lms] }).moduleItems).toEqual([
      { type: 'spot', spotItemType: 'function', spotItemId: 12 },
      { type: 'mediation', title: 'Walk the line', description: 'With the team leader' },
      { type: 'url', url: 'https://example.org/guide', label: 'Guide' },
      { type: 'lms', lmsCourseId: 31, launchMode: 'Browse' },
    ])
  })
})

describe('url elements', () => {
  it.each([
    ['', 'emptyFieldError'],
    [' https://example.org', 'beginEndWhitespaceError'],
    ['ftp://example.org', 'notAValidUrl'],
    ['example.org', 'notAValidUrl'],
    ['https://', 'notAValidUrl'],
    ['http://example.org/a?b=c', undefined],
  ])('%j gives %s', (url, code) => {
    expect(urlError(url)).toBe(code)
  })

  it('can be tested only when the url and the label are both valid', () => {
    expect(canTestUrl('https://example.org', 'Guide')).toBe(true)
    expect(canTestUrl('https://example.org', '')).toBe(false)
    expect(canTestUrl('https://example.org', 'Guide ')).toBe(false)
    expect(canTestUrl('example.org', 'Guide')).toBe(false)
  })
})

describe('moving elements', () => {
  const list = ['a', 'b', 'c']
  it('moves one place up or down', () => {
    expect(moveElement(list, 1, -1)).toEqual(['b', 'a', 'c'])
    expect(moveElement(list, 1, 1)).toEqual(['a', 'c', 'b'])
  })
  it('leaves the list as it is at its ends', () => {
    expect(moveElement(list, 0, -1)).toEqual(list)
    expect(moveElement(list, 2, 1)).toEqual(list)
  })
})

describe('server errors', () => {
  it('land on their form field, element errors on the element', () => {
    expect(formFieldOf('estimatedDuration')).toBe('duration')
    expect(formFieldOf('moduleItems')).toBe('elements')
    expect(formFieldOf('moduleItems[2].url')).toBe('elements')
    expect(elementIndexOf('moduleItems[2].url')).toBe(2)
    expect(elementIndexOf('moduleItems')).toBeUndefined()
    expect(formFieldOf('unknown')).toBeUndefined()
  })
})

describe('the form of an existing module', () => {
  it('takes its fields, periodicity and elements', () => {
    const module = {
      id: 4,
      name: 'Lockout',
      moduleType: 'training',
      reference: { code: 'M-1', label: 'Safety', description: '' },
      goals: 'Isolate',
      estimatedDuration: 120,
      periodicity: 24,
      passThreshold: 7,
      enabled: true,
      creation: { userId: 1, userName: 'Admin', date: '2026-01-01T00:00:00Z' },
      version: 2,
      usage: { trainingPath: 0, hasAcceptedTrainingPath: false },
      can: { edit: true, delete: true, setEnabled: true },
      moduleItems: [{ type: 'url', url: 'https://example.org', label: 'Guide' }],
    } as Module
    expect(formFromModule(module)).toMatchObject({
      name: 'Lockout',
      moduleType: 'training',
      reference: 'M-1',
      duration: '2',
      durationUnit: 'hours',
      periodic: true,
      periodicity: '24',
      passThreshold: 7,
      elements: [{ type: 'url', url: 'https://example.org', label: 'Guide' }],
    })
  })
})
