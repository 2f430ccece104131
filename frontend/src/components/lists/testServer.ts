import fixture from '../../lib/querylang/roundtrip.fixture.json'
import type { QueryField } from '../../lib/querylang/types'
import { errorBody, json } from '../../test/server'

/** The subject registry of the server, as GET /querylang/subject/fields answers it (a part). */
export const SUBJECT_FIELDS: QueryField[] = [
  { name: 'location', type: 'location', operators: ['oneOf', 'noneOf'], values: [], filterable: true, sortable: false },
  { name: 'name', type: 'string', operators: ['contains', 'startsWith', 'endsWith', 'equals', 'different'], values: [], filterable: true, sortable: true },
  { name: 'code', type: 'string', operators: ['contains', 'startsWith', 'endsWith', 'equals', 'different'], values: [], filterable: true, sortable: true },
  { name: 'node_status', type: 'enum', operators: ['oneOf', 'noneOf'], values: ['empty', 'inProgress', 'toValidate', 'validated'], filterable: true, sortable: false },
  { name: 'criticity', type: 'enum', operators: ['oneOf', 'noneOf'], values: ['none', 'low', 'medium', 'high'], filterable: true, sortable: true },
  { name: 'created_by', type: 'id', operators: ['oneOf', 'noneOf'], values: [], filterable: true, sortable: false },
  { name: 'contributors', type: 'id', operators: ['oneOf', 'noneOf'], values: [], filterable: true, sortable: false },
  ...['created_date', 'updated_date'].map(
    (name): QueryField => ({ name, type: 'date', operators: ['sameDay', 'before', 'beforeOrSameDay', 'after', 'afterOrSameDay'], values: [], filterable: true, sortable: true }),
  ),
  ...['followed', 'resolved'].map((name): QueryField => ({ name, type: 'boolean', operators: ['equals'], values: [], filterable: true, sortable: false })),
]

export const FIELDS_CALL = 'GET /backend/api/v2/querylang/subject/fields'
export const PARSE_CALL = 'POST /backend/api/v2/querylang/subject/parse'
export const CHECK_CALL = 'POST /backend/api/v2/querylang/subject/check'
export const FILTERS_CALL = 'GET /backend/api/v2/account/filters'
export const SAVE_FILTERS_CALL = 'POST /backend/api/v2/account/filters'

export const NESTED_TEXT = 'name contains a & (code equals b | code equals c)'
const NESTED_TREE = {
  kind: 'and',
  children: [
    { kind: 'criterion', field: 'name', operator: 'contains', type: 'string', value: 'a', values: null },
    {
      kind: 'or',
      children: [
        { kind: 'criterion', field: 'code', operator: 'equals', type: 'string', value: 'b', values: null },
        { kind: 'criterion', field: 'code', operator: 'equals', type: 'string', value: 'c', values: null },
      ],
    },
  ],
}

/** A parse error as the server answers it: the message and the position in the text. */
export const parseError = (message: string, position: number, field = 'filter') =>
  errorBody(400, 'Bad Request', message, [{ field, code: message, position } as { field: string; code: string }])

/**
 * POST /querylang/subject/parse for the texts the tests use: the fixture's (whose trees come from the
 * real parser), a nested filter, sorts of sortable fields; anything else is refused at `errorAt`.
 */
export async function parseAnswer(request: Request) {
  const { filter, sort } = (await request.json()) as { filter: string; sort: string }
  const known = fixture.cases.find((c) => c.text === filter)
  const tree = filter.trim() === '' ? null : filter === NESTED_TEXT ? NESTED_TREE : known?.tree
  if (tree === undefined) return parseError('Unexpected character', Math.max(0, filter.indexOf('!')))
  const keys = sort === '' ? [] : sort.split(',').map((key) => ({ field: key.replace(/^-/, ''), descending: key.startsWith('-') }))
  if (keys.some((key) => !SUBJECT_FIELDS.find((f) => f.name === key.field)?.sortable)) return parseError('Field is not valid for this query', 0, 'sort')
  return json({ filter: tree, sort: keys })
}

/** POST /querylang/subject/check: parse's answer, its refusals as `errors` of a 200. */
export async function checkAnswer(request: Request) {
  const parsed = await parseAnswer(request)
  const body = await parsed.json()
  return json(parsed.ok ? { ...body, errors: [] } : { filter: null, sort: [], errors: body.errors })
}

export const fieldsAnswer = () => json({ entityType: 'subject', fields: SUBJECT_FIELDS, defaultSort: [{ field: 'updated_date', descending: true }] })
