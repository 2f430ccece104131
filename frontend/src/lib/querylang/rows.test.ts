import { describe, expect, it } from 'vitest'
import { INVALID_DATE, INVALID_VALUE, MUST_NOT_BE_EMPTY, newRow, rowErrors, treeToRows, withField } from './rows'
import type { CriterionNode, FilterNode, QueryField } from './types'

const field = (name: string, type: QueryField['type'], operators: string[], values: string[] = []): QueryField => ({
  name,
  type,
  operators,
  values,
  filterable: true,
  sortable: false,
})

const FIELDS = [
  field('name', 'string', ['contains', 'equals']),
  field('code', 'string', ['contains', 'equals']),
  field('created_date', 'date', ['before', 'after']),
  field('followed', 'boolean', ['equals']),
  field('status', 'enum', ['oneOf', 'noneOf'], ['started', 'paused']),
  field('mediator', 'id', ['oneOf', 'noneOf']),
  field('participants', 'id', ['oneOf', 'noneOf']),
  field('location', 'location', ['oneOf', 'noneOf']),
]
const byName = (name: string) => FIELDS.find((f) => f.name === name) as QueryField

const term = (name: string): CriterionNode => ({ kind: 'criterion', field: name, operator: 'contains', type: 'string', value: 'x' })

describe('treeToRows', () => {
  it('shows no filter as no row', () => {
    expect(treeToRows(null)).toEqual({ join: 'and', rows: [] })
  })

  it('shows a single criterion as one row', () => {
    expect(treeToRows(term('name'))?.rows).toHaveLength(1)
  })

  it('shows criteria joined by one operator as rows with that join', () => {
    expect(treeToRows({ kind: 'or', children: [term('name'), term('code')] })?.join).toBe('or')
  })

  it.each<[string, FilterNode]>([
    ['a nested group', { kind: 'and', children: [term('name'), { kind: 'or', children: [term('code'), term('name')] }] }],
    ['a group of groups', { kind: 'or', children: [{ kind: 'and', children: [term('code'), term('name')] }, { kind: 'and', children: [term('name'), term('code')] }] }],
  ])('finds %s too complex for the editor', (_name, tree) => {
    expect(treeToRows(tree)).toBeNull()
  })
})

describe('rowErrors', () => {
  it('accepts an empty text, written \\0', () => {
    expect(rowErrors(newRow(byName('name')), FIELDS)).toBeUndefined()
  })

  it.each(['status', 'mediator', 'location'])('asks for at least one value of %s', (name) => {
    expect(rowErrors(newRow(byName(name)), FIELDS)).toEqual({ value: MUST_NOT_BE_EMPTY })
  })

  it('asks for a date, and refuses a half-typed one', () => {
    const row = newRow(byName('created_date'))
    expect(rowErrors(row, FIELDS)).toEqual({ value: MUST_NOT_BE_EMPTY })
    expect(rowErrors({ ...row, invalid: true }, FIELDS)).toEqual({ value: INVALID_DATE })
    expect(rowErrors({ ...row, value: '2026-02-30x' }, FIELDS)).toEqual({ value: INVALID_DATE })
    expect(rowErrors({ ...row, value: '2026-02-03' }, FIELDS)).toBeUndefined()
  })

  it('starts a boolean at true, which is valid', () => {
    const row = newRow(byName('followed'))
    expect(row.value).toBe('true')
    expect(rowErrors(row, FIELDS)).toBeUndefined()
  })

  it('refuses enum values outside the enum, unknown fields and operators of another type', () => {
    const status = { ...newRow(byName('status')), values: ['started', 'archived'] }
    expect(rowErrors(status, FIELDS)).toEqual({ value: INVALID_VALUE })
    expect(rowErrors({ ...status, field: 'gone' }, FIELDS)).toEqual({ field: INVALID_VALUE })
    expect(rowErrors({ ...newRow(byName('name')), operator: 'oneOf' }, FIELDS)).toEqual({ operator: INVALID_VALUE })
  })
})

describe('withField', () => {
  it('keeps a text and its operator on another text field', () => {
    const row = { ...newRow(byName('name')), operator: 'equals', value: 'pump' }
    expect(withField(row, byName('code'))).toMatchObject({ field: 'code', operator: 'equals', value: 'pump', key: row.key })
  })

  it('starts again on a field of another type, or on another list field', () => {
    const row = { ...newRow(byName('mediator')), values: [3] }
    expect(withField(row, byName('participants'))).toMatchObject({ field: 'participants', values: [], key: row.key })
    expect(withField(row, byName('created_date'))).toMatchObject({ field: 'created_date', type: 'date', operator: 'before', value: '' })
  })
})
