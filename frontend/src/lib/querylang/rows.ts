import { printFilter } from './printer'
import { type CriterionNode, type FieldType, type FilterNode, isListType, type QueryField, type ValueId } from './types'

/** How the criteria of the editor are joined: `&` or `|`. */
export type Join = 'and' | 'or'

/** One criterion of the filter editor. */
export interface FilterRow {
  /** Stable identity for rendering; not part of the filter. */
  key: number
  field: string
  type: FieldType
  operator: string
  /** string: the text; date: YYYY-MM-DD or "" while none is chosen; boolean: "true" or "false". */
  value: string
  /** enum, id and location: the chosen members. */
  values: ValueId[]
  /** The input holds text that is not a value of the type (a half-typed date). */
  invalid: boolean
}

/** What the editor shows: criteria joined by one operator. A filter that is not of this shape is too complex for it. */
export interface FilterRows {
  join: Join
  rows: FilterRow[]
}

/** Message keys of a criterion's problems, by the input that shows them. */
export interface RowErrors {
  field?: string
  operator?: string
  value?: string
}

export const INVALID_DATE = 'invalidDate'
export const MUST_NOT_BE_EMPTY = 'mustNotBeEmpty'
export const INVALID_VALUE = 'invalidValue'

const DATE = /^\d{4}-\d{2}-\d{2}$/

let lastKey = 0
const nextKey = () => (lastKey += 1)

export const EMPTY_ROWS: FilterRows = { join: 'and', rows: [] }

function rowOf(criterion: CriterionNode): FilterRow {
  const { field, type, operator, value } = criterion
  const base = { key: nextKey(), field, type, operator, value: '', values: [] as ValueId[], invalid: false }
  if (isListType(type)) return { ...base, values: [...(criterion.values ?? [])] }
  if (type === 'boolean') return { ...base, value: value === true ? 'true' : 'false' }
  return { ...base, value: typeof value === 'string' ? value : '' }
}

/** The rows of a parsed filter, or null when it is too complex for the editor (nested or mixed groups). */
export function treeToRows(node: FilterNode | null): FilterRows | null {
  if (node === null) return { join: 'and', rows: [] }
  if (node.kind === 'criterion') return { join: 'and', rows: [rowOf(node)] }
  const criteria = node.children.filter((child): child is CriterionNode => child.kind === 'criterion')
  if (criteria.length !== node.children.length) return null
  return { join: node.kind, rows: criteria.map(rowOf) }
}

function criterionOf(row: FilterRow): CriterionNode {
  const base = { kind: 'criterion' as const, field: row.field, operator: row.operator, type: row.type }
  if (isListType(row.type)) return { ...base, values: row.values }
  if (row.type === 'boolean') return { ...base, value: row.value === 'true' }
  return { ...base, value: row.value }
}

export function rowsToTree({ join, rows }: FilterRows): FilterNode | null {
  if (rows.length === 0) return null
  if (rows.length === 1) return criterionOf(rows[0])
  return { kind: join, children: rows.map(criterionOf) }
}

export const printRows = (rows: FilterRows): string => printFilter(rowsToTree(rows))

/** A new criterion on `field`, with its first operator and no value yet. */
export function newRow(field: QueryField): FilterRow {
  return {
    key: nextKey(),
    field: field.name,
    type: field.type,
    operator: field.operators[0] ?? '',
    value: field.type === 'boolean' ? 'true' : '',
    values: [],
    invalid: false,
  }
}

/** The row moved to another field: a text, date or boolean value and the operator stay when the type is the same. */
export function withField(row: FilterRow, field: QueryField): FilterRow {
  // Members (enum values, ids) belong to their field: another field starts with none.
  if (field.type !== row.type || isListType(field.type)) return { ...newRow(field), key: row.key }
  const operator = field.operators.includes(row.operator) ? row.operator : (field.operators[0] ?? '')
  return { ...row, field: field.name, operator }
}

/** The problems of a criterion against the entity's fields; undefined when it can be applied. */
export function rowErrors(row: FilterRow, fields: readonly QueryField[]): RowErrors | undefined {
  const field = fields.find((f) => f.name === row.field && f.filterable)
  if (!field) return { field: INVALID_VALUE }
  if (!field.operators.includes(row.operator)) return { operator: INVALID_VALUE }
  const value = valueError(row, field)
  return value ? { value } : undefined
}

function valueError(row: FilterRow, field: QueryField): string | undefined {
  if (row.invalid) return field.type === 'date' ? INVALID_DATE : INVALID_VALUE
  switch (field.type) {
    case 'enum':
      if (row.values.length === 0) return MUST_NOT_BE_EMPTY
      return row.values.every((v) => field.values.includes(String(v))) ? undefined : INVALID_VALUE
    case 'id':
    case 'location':
      return row.values.length === 0 ? MUST_NOT_BE_EMPTY : undefined
    case 'date':
      if (row.value === '') return MUST_NOT_BE_EMPTY
      return DATE.test(row.value) ? undefined : INVALID_DATE
    case 'boolean':
      return row.value === 'true' || row.value === 'false' ? undefined : INVALID_VALUE
    default:
      return undefined
  }
}
