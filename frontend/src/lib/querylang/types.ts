import type { components } from '../../api/schema'

type Schemas = components['schemas']

/** A field type of the query language (see backend/src/spot/querylang/__init__.py). */
export type FieldType = Schemas['FieldType']

/** One term of a parsed filter: `value` for string, date (YYYY-MM-DD) and boolean fields, `values` for the others. */
export type CriterionNode = Schemas['FilterCriterionOut']

/** Terms joined by one kind of operator; always at least two children. */
export type GroupNode = Schemas['FilterGroupOut']

/** A filter tree as POST /querylang/{entityType}/parse answers it. */
export type FilterNode = CriterionNode | GroupNode

export type SortKey = Schemas['SortKeyOut']

/** A field of an entity type's registry (GET /querylang/{entityType}/fields). */
export type QueryField = Schemas['QueryFieldOut']

export type ParseResult = Schemas['QueryParseResult']

export type SavedFilter = Schemas['SavedFilterOut']

/** An id of an id or location value: a number, or a code for the fields keyed by one. */
export type ValueId = number | string

/** The body of every POST /<entity>/query. */
export interface ListQuery {
  filter: string
  sort: string
  page: number
  pageSize: number
}

/** One page of any POST /<entity>/query answer. */
export interface ListPage<T> {
  results: T[]
  totalItems: number
}

/** The field types whose value is a comma list of members (`oneOf`, `noneOf`). */
const LIST_TYPES: readonly FieldType[] = ['enum', 'id', 'location']

export const isListType = (type: FieldType): boolean => LIST_TYPES.includes(type)
