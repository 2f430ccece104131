import { describe, expect, it } from 'vitest'
import { EMPTY_VALUE, escapeValue, printFilter, printSort } from './printer'
import type { CriterionNode } from './types'

const criterion = (field: string, operator: string, value: string): CriterionNode => ({ kind: 'criterion', field, operator, type: 'string', value })

describe('escapeValue', () => {
  it.each([
    ['plain text', 'plain text'],
    ['', EMPTY_VALUE],
    ['a&b|c', 'a\\&b\\|c'],
    ['(x)', '\\(x\\)'],
    ['back\\slash', 'back\\\\slash'],
    ['a,b', 'a,b'],
    [' x ', '\\ x\\ '],
    ['\tx\n', '\\\tx\\\n'],
    ['in  between', 'in  between'],
    ['0', '0'],
  ])('writes %j as %j', (text, written) => {
    expect(escapeValue(text)).toBe(written)
  })

  it('escapes the commas of list members', () => {
    expect(escapeValue('a,b', true)).toBe('a\\,b')
  })

  it('counts characters by code point, as the server does', () => {
    expect(escapeValue('😀 ')).toBe('😀\\ ')
  })
})

describe('printFilter', () => {
  it('writes nothing for no filter', () => {
    expect(printFilter(null)).toBe('')
  })

  it('puts nested groups in parentheses', () => {
    const tree = {
      kind: 'and' as const,
      children: [criterion('name', 'contains', 'a'), { kind: 'or' as const, children: [criterion('code', 'equals', 'b'), criterion('code', 'equals', '')] }],
    }
    expect(printFilter(tree)).toBe('name contains a & (code equals b | code equals \\0)')
  })

  it('writes booleans, dates and lists', () => {
    expect(printFilter({ kind: 'criterion', field: 'followed', operator: 'equals', type: 'boolean', value: false })).toBe('followed equals false')
    expect(printFilter({ kind: 'criterion', field: 'created_date', operator: 'before', type: 'date', value: '2026-03-04' })).toBe(
      'created_date before 2026-03-04',
    )
    expect(printFilter({ kind: 'criterion', field: 'function', operator: 'oneOf', type: 'id', values: [1, 'C,2'] })).toBe('function oneOf 1,C\\,2')
  })
})

describe('printSort', () => {
  it('writes a comma list with a minus for descending keys', () => {
    expect(printSort([{ field: 'updated_date', descending: true }, { field: 'name', descending: false }])).toBe('-updated_date,name')
    expect(printSort([])).toBe('')
  })
})
