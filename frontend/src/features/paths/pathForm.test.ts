import dayjs from 'dayjs'
import { describe, expect, it } from 'vitest'
import { dateLimits, formFieldOf, newForm, newModule, type PathForm, pathDatesValid, pathSchema, savePayload } from './pathForm'

const TODAY = dayjs('2026-12-01')
const ME = 1
const paul = { id: 7, name: 'Paul Martin' }
const lea = { id: 8, name: 'Léa Petit' }
/** can.fields of an accepted path for its creator. */
const ACCEPTED_FIELDS = {
  title: false,
  reference: false,
  startDate: false,
  stopDate: false,
  passThreshold: false,
  assignedModules: false,
  referents: true,
  visibleByPersons: true,
  visibleByGroups: true,
}

function form(changes: Partial<PathForm> = {}): PathForm {
  const base = { ...newForm(TODAY), title: 'Sécurité', learners: [paul] }
  return { ...base, modules: [{ ...newModule(base), module: { id: 4, name: 'Consignation' }, referents: [lea] }], ...changes }
}

/** The messages of the form's rules, by field path. */
function errorsOf(values: PathForm, rules: Partial<Parameters<typeof pathSchema>[0]> = {}): Record<string, string> {
  const result = pathSchema({ today: TODAY, creatorId: ME, ...rules }).safeParse(values)
  if (result.success) return {}
  return Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), issue.message]))
}

describe('the path form rules (spec 2 §5)', () => {
  it('accept a path with a title, a learner and a module with referents within the dates', () => {
    expect(errorsOf(form())).toEqual({})
  })

  it('ask for a title, a learner or a group, and at least one module', () => {
    expect(errorsOf(form({ title: ' ', learners: [], modules: [] }))).toEqual({
      title: 'emptyFieldError',
      learners: 'defineAtLeastOneLearnerOrGroup',
      modules: 'emptyFieldError',
    })
    expect(errorsOf(form({ learners: [], learnerGroups: [{ id: 4, name: 'Qualité' }] }))).toEqual({})
  })

  it('refuse the creator as a learner, and a learner as a referent', () => {
    expect(errorsOf(form({ learners: [{ id: ME, name: 'Me' }] }))).toEqual({ learners: 'creatorCantBeLearner' })
    const row = form().modules[0]
    expect(errorsOf(form({ modules: [{ ...row, referents: [paul] }] }))).toEqual({ 'modules.0.referents': 'learnerCantBeReferent' })
  })

  it('ask each module for a module and referents', () => {
    const row = form().modules[0]
    expect(errorsOf(form({ modules: [{ ...row, module: null, referents: [] }] }))).toEqual({
      'modules.0.module': 'emptyFieldError',
      'modules.0.referents': 'emptyFieldError',
    })
  })

  it('refuse a stop date before the start or before today, and module dates outside the path', () => {
    expect(errorsOf(form({ stopDate: TODAY.subtract(1, 'day'), startDate: TODAY.subtract(5, 'day') }))).toMatchObject({ stopDate: 'trainingPathDatesError' })
    expect(errorsOf(form({ startDate: TODAY.add(3, 'day'), stopDate: TODAY.add(2, 'day') }))).toMatchObject({ stopDate: 'trainingPathDatesError' })
    const row = form().modules[0]
    expect(errorsOf(form({ modules: [{ ...row, startDate: TODAY.subtract(1, 'day'), stopDate: TODAY.add(2, 'month') }] }))).toEqual({
      'modules.0.startDate': 'trainingPathDatesError',
      'modules.0.stopDate': 'trainingPathDatesError',
    })
    expect(errorsOf(form({ modules: [{ ...row, startDate: TODAY.add(5, 'day'), stopDate: TODAY.add(2, 'day') }] }))).toEqual({
      'modules.0.stopDate': 'trainingPathDatesError',
    })
    expect(errorsOf(form({ startDate: null }))).toMatchObject({ startDate: 'emptyFieldError' })
  })

  it('check only the fields the server lets change: referents and visibility once the path is accepted (its learner given)', () => {
    const row = form().modules[0]
    const accepted = form({ title: '', startDate: TODAY.subtract(2, 'month'), stopDate: TODAY.subtract(1, 'month'), modules: [{ ...row, module: null, referents: [paul] }] })
    const fields = { ...ACCEPTED_FIELDS }
    expect(errorsOf(accepted, { fields, learnerIds: [7] })).toEqual({ 'modules.0.referents': 'learnerCantBeReferent' })
    expect(errorsOf(accepted, { fields: { ...fields, title: true }, learnerIds: [7] })).toMatchObject({ title: 'emptyFieldError' })
    expect(errorsOf(accepted, { fields: { ...fields, assignedModules: true }, learnerIds: [7] })).toMatchObject({ 'modules.0.module': 'emptyFieldError' })
  })
})

describe('the dates', () => {
  it('limit the start to the stop, and the stop to today or the start, whichever is later, while notAccepted', () => {
    const limits = dateLimits({ startDate: TODAY.add(10, 'day'), stopDate: TODAY.add(20, 'day') }, TODAY, true)
    expect(limits.maxStart.format('YYYY-MM-DD')).toBe('2026-12-21')
    expect(limits.minStop?.format('YYYY-MM-DD')).toBe('2026-12-11')
    expect(dateLimits({ startDate: TODAY.subtract(10, 'day'), stopDate: null }, TODAY, true).minStop?.format('YYYY-MM-DD')).toBe('2026-12-01')
    expect(dateLimits({ startDate: TODAY.subtract(10, 'day'), stopDate: null }, TODAY, false).minStop?.format('YYYY-MM-DD')).toBe('2026-11-21')
  })

  it('must be valid for a module to be added', () => {
    expect(pathDatesValid({ startDate: TODAY, stopDate: TODAY }, TODAY)).toBe(true)
    expect(pathDatesValid({ startDate: TODAY, stopDate: TODAY.subtract(1, 'day') }, TODAY)).toBe(false)
    expect(pathDatesValid({ startDate: null, stopDate: TODAY }, TODAY)).toBe(false)
  })
})

describe('the payload', () => {
  it('sends ids and days', () => {
    expect(savePayload(form({ reference: 'P-SEC', visibleByGroups: [{ id: 4, name: 'Qualité' }] }))).toEqual({
      title: 'Sécurité',
      reference: 'P-SEC',
      startDate: '2026-12-01',
      stopDate: '2027-01-01',
      passThreshold: 10,
      visibleByPersons: [],
      visibleByGroups: [4],
      assignedModules: [{ moduleId: 4, referents: [8], startDate: '2026-12-01', stopDate: '2027-01-01' }],
    })
  })

  it('shows server errors on their fields', () => {
    expect(formFieldOf('learnerIds')).toBe('learners')
    expect(formFieldOf('learnerGroupIds')).toBe('learnerGroups')
    expect(formFieldOf('assignedModules[2].referents')).toBe('modules.2.referents')
    expect(formFieldOf('assignedModules.1.moduleId')).toBe('modules.1.module')
    expect(formFieldOf('assignedModules')).toBe('modules')
    expect(formFieldOf('stopDate')).toBe('stopDate')
    expect(formFieldOf('version')).toBeUndefined()
  })
})
