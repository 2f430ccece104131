import { describe, expect, it } from 'vitest'
import { defaultFilter, foldName, NAME_ALREADY_USED, nameProblem, withAdded, withDefault, withRemoved, withRenamed } from './savedFilters'
import type { SavedFilter } from './types'

const saved = (name: string, isDefault = false): SavedFilter => ({ name, filter: `name contains ${name}`, sorting: '', isDefault })
const FILTERS = [saved('Pompes'), saved('Mine', true), saved('Électricité')]
const defaults = (filters: SavedFilter[]) => filters.filter((f) => f.isDefault).map((f) => f.name)

describe('the default saved filter', () => {
  it('is at most one: choosing one clears the previous', () => {
    expect(defaults(withDefault(FILTERS, 'Pompes'))).toEqual(['Pompes'])
  })

  it('can be none', () => {
    expect(defaults(withDefault(FILTERS, null))).toEqual([])
  })

  it('moves to a new filter saved as default', () => {
    const next = withAdded(FILTERS, saved('Nouveau', true))
    expect(defaults(next)).toEqual(['Nouveau'])
    expect(next.map((f) => f.name)).toEqual(['Pompes', 'Mine', 'Électricité', 'Nouveau'])
  })

  it('stays when the new filter is not a default', () => {
    expect(defaults(withAdded(FILTERS, saved('Nouveau')))).toEqual(['Mine'])
  })

  it('is found among the filters', () => {
    expect(defaultFilter(FILTERS)?.name).toBe('Mine')
    expect(defaultFilter(withDefault(FILTERS, null))).toBeUndefined()
  })
})

describe('saved filter names', () => {
  it('follow the general text rule', () => {
    expect(nameProblem('', FILTERS)).toBe('emptyFieldError')
    expect(nameProblem('   ', FILTERS)).toBe('emptyFieldError')
    expect(nameProblem(' Pumps', FILTERS)).toBe('beginEndWhitespaceError')
    expect(nameProblem('Pumps', FILTERS)).toBeUndefined()
  })

  it('are unique ignoring case and accents', () => {
    expect(nameProblem('electricite', FILTERS)).toBe(NAME_ALREADY_USED)
    expect(nameProblem('POMPES', FILTERS)).toBe(NAME_ALREADY_USED)
    expect(foldName('Œuvre Ça')).toBe('oeuvre ca')
  })

  it('may keep their own name when renamed', () => {
    expect(nameProblem('Pompes', FILTERS, 'Pompes')).toBeUndefined()
    expect(nameProblem('pompes', FILTERS, 'Pompes')).toBeUndefined()
    expect(nameProblem('Mine', FILTERS, 'Pompes')).toBe(NAME_ALREADY_USED)
  })

  it('rename and delete one filter only', () => {
    expect(withRenamed(FILTERS, 'Mine', 'Les miens').map((f) => f.name)).toEqual(['Pompes', 'Les miens', 'Électricité'])
    expect(withRemoved(FILTERS, 'Mine').map((f) => f.name)).toEqual(['Pompes', 'Électricité'])
  })
})
