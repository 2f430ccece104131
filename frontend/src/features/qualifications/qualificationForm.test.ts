import { describe, expect, it } from 'vitest'
import type { Qualification } from './api'
import { EMPTY_FORM, formFromQualification, type QualificationForm, qualificationSchema, savePayload } from './qualificationForm'

const VALID: QualificationForm = {
  name: 'Habilitation électrique',
  cartographies: [{ id: 2, name: 'Atelier' }],
  qualifiableGroups: [{ id: 7, name: 'Opérateurs' }],
  modules: [{ id: 3, name: 'Consignation' }, { id: 4, name: 'Sécurité' }],
  functions: [{ id: 51, name: 'Régleur', cartographyId: 2 }],
  requalificationWindowDays: '90',
  defaultReferents: [{ id: 6, name: 'Rémi Référent' }],
}

/** The message key of each field in error. */
function errorsOf(form: QualificationForm): Record<string, string> {
  const result = qualificationSchema.safeParse(form)
  if (result.success) return {}
  return Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), issue.message]))
}

describe('the qualification form rules (spec 2 §5)', () => {
  it('accepts a name, groups and modules, cartographies, functions and referents being optional', () => {
    expect(errorsOf(VALID)).toEqual({})
    expect(errorsOf({ ...VALID, cartographies: [], functions: [], defaultReferents: [] })).toEqual({})
  })

  it('refuses an empty form with a message on each required field', () => {
    expect(errorsOf(EMPTY_FORM)).toEqual({ name: 'emptyFieldError', qualifiableGroups: 'emptyFieldError', modules: 'emptyFieldError' })
  })

  it('starts with a requalification window of 60 days', () => {
    expect(EMPTY_FORM.requalificationWindowDays).toBe('60')
  })

  it.each([' ', '   '])('refuses a blank name %j as empty', (name) => {
    expect(errorsOf({ ...VALID, name })).toEqual({ name: 'emptyFieldError' })
  })

  it.each([' Habilitation', 'Habilitation ', '\tHabilitation'])('refuses a name %j beginning or ending with whitespace', (name) => {
    expect(errorsOf({ ...VALID, name })).toEqual({ name: 'beginEndWhitespaceError' })
  })

  it('needs at least one group and at least one module', () => {
    expect(errorsOf({ ...VALID, qualifiableGroups: [] })).toEqual({ qualifiableGroups: 'emptyFieldError' })
    expect(errorsOf({ ...VALID, modules: [] })).toEqual({ modules: 'emptyFieldError' })
  })

  it.each(['0', '60', '3650'])('accepts a window of %s days', (requalificationWindowDays) => {
    expect(errorsOf({ ...VALID, requalificationWindowDays })).toEqual({})
  })

  it.each(['', '-1', '3651', '6.5', '060', 'soixante'])('refuses a window of %j days as out of range', (requalificationWindowDays) => {
    expect(errorsOf({ ...VALID, requalificationWindowDays })).toEqual({ requalificationWindowDays: 'valueMustBeBetween' })
  })
})

describe('savePayload', () => {
  it('sends the ids, modules in the order chosen, and the window as a number', () => {
    expect(savePayload(VALID)).toEqual({
      name: 'Habilitation électrique',
      cartographies: [2],
      qualifiableGroups: [7],
      modules: [3, 4],
      functions: [51],
      requalificationWindowDays: 90,
      defaultReferents: [6],
    })
  })

  it('leaves out the functions of a cartography taken out of the form', () => {
    expect(savePayload({ ...VALID, cartographies: [{ id: 8, name: 'Ligne' }] }).functions).toEqual([])
  })
})

describe('formFromQualification', () => {
  it('fills the form with what the qualification names', () => {
    const qualification = {
      id: 9,
      name: 'Habilitation électrique',
      cartographies: [{ id: 2, name: 'Atelier', siteName: 'Lyon' }],
      qualifiableGroups: [{ id: 7, name: 'Opérateurs' }],
      modules: [
        { id: 3, name: 'Consignation', periodicity: 12, enabled: true },
        { id: 4, name: 'Sécurité', periodicity: 0, enabled: false },
      ],
      functions: [{ id: 51, name: 'Régleur', cartographyId: 2 }],
      requalificationWindowDays: 90,
      defaultReferents: [{ id: 6, name: 'Rémi Référent' }],
      discussionId: 5,
      creation: { userId: 1, userName: 'Admin', date: '2026-11-01T08:00:00Z' },
      version: 3,
      can: { edit: true, delete: true, seeDashboard: true },
    } satisfies Qualification
    expect(formFromQualification(qualification)).toEqual(VALID)
  })
})
