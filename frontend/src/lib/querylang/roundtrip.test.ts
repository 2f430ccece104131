import { describe, expect, it } from 'vitest'
import fixture from './roundtrip.fixture.json'
import { printFilter } from './printer'
import { type FilterRows, printRows, rowsToTree, treeToRows } from './rows'
import type { FilterNode } from './types'

type Case = (typeof fixture.cases)[number]

const rowsOf = (c: Case): FilterRows =>
  ({ join: c.rows.join, rows: c.rows.rows.map((row, index) => ({ ...row, key: index + 1, invalid: false })) }) as FilterRows

const withoutKeys = (rows: FilterRows | null) =>
  rows && { join: rows.join, rows: rows.rows.map((row) => ({ field: row.field, type: row.type, operator: row.operator, value: row.value, values: row.values })) }

/** The server writes both value and values, one of them null; the client writes only the one it uses. */
function serverShape(node: FilterNode | null): unknown {
  if (node === null) return null
  if (node.kind !== 'criterion') return { kind: node.kind, children: node.children.map(serverShape) }
  return { value: null, values: null, ...node }
}

// The texts and trees of the fixture are those of the server's parser: e2e/test_lists.py checks them against it.
describe.each(fixture.cases)('round trip: $name', (c) => {
  const tree = c.tree as FilterNode

  it('prints the rows as the text the server parses to the tree', () => {
    expect(printRows(rowsOf(c))).toBe(c.text)
  })

  it('prints the tree as the same text', () => {
    expect(printFilter(tree)).toBe(c.text)
  })

  it('reads the tree back as the same rows', () => {
    expect(withoutKeys(treeToRows(tree))).toEqual(c.rows)
  })

  it('builds the tree the server builds', () => {
    expect(serverShape(rowsToTree(rowsOf(c)))).toEqual(c.tree)
  })
})

describe('the fixture', () => {
  it('covers every field type, both joins and the empty value', () => {
    const types = new Set(fixture.cases.flatMap((c) => c.rows.rows.map((row) => row.type)))
    expect([...types].sort()).toEqual(['boolean', 'date', 'enum', 'id', 'location', 'string'])
    expect(new Set(fixture.cases.map((c) => c.rows.join))).toEqual(new Set(['and', 'or']))
    expect(fixture.cases.some((c) => c.text.includes('\\0'))).toBe(true)
  })
})
