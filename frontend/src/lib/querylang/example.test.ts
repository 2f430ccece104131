import { describe, expect, it } from 'vitest'
import { filterExample } from './example'
import type { QueryField } from './types'

const field = (name: string, type: QueryField['type'], operators: string[], filterable = true): QueryField => ({
  name,
  type,
  operators,
  filterable,
  sortable: true,
  values: [],
})

describe('filterExample', () => {
  it("writes the example with the entity type's own fields, never another type's", () => {
    const subjectFields = [
      field('id', 'id', ['oneOf']),
      field('description', 'string', ['contains', 'startsWith']),
      field('name', 'string', ['contains', 'startsWith']),
      field('created_date', 'date', ['before', 'after']),
    ]
    expect(filterExample(subjectFields, 'pompe', 2026)).toBe('name contains pompe & created_date after 2026-01-01')
  })

  it('takes the first text field when there is no name, and leaves out what the type lacks', () => {
    const userFields = [field('login', 'string', ['contains']), field('last_name', 'string', ['contains'])]
    expect(filterExample(userFields, 'dupont', 2026)).toBe('login contains dupont')
    expect(filterExample([field('state', 'enum', ['oneOf'])], 'x', 2026)).toBe('')
  })

  it('skips fields that cannot be filtered', () => {
    const fields = [field('name', 'string', ['contains'], false), field('code', 'string', ['contains'])]
    expect(filterExample(fields, 'abc', 2026)).toBe('code contains abc')
  })
})
