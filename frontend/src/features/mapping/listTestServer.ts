import type { MapItemName } from '../../api/types'
import type { QueryField } from '../../lib/querylang/types'
import { json } from '../../test/server'

const TEXT_OPERATORS = ['contains', 'startsWith', 'endsWith', 'equals', 'different']
const LIST_OPERATORS = ['oneOf', 'noneOf']

/** The registries of backend/src/spot/mapping/query.py, as GET /querylang/{entityType}/fields answers them. */
export const MAP_FIELDS: Record<'cartography' | 'function', QueryField[]> = {
  cartography: [
    { name: 'name', type: 'string', operators: TEXT_OPERATORS, values: [], filterable: true, sortable: true },
    { name: 'code', type: 'string', operators: TEXT_OPERATORS, values: [], filterable: true, sortable: true },
    { name: 'site', type: 'id', operators: LIST_OPERATORS, values: [], filterable: true, sortable: false },
    { name: 'location', type: 'location', operators: LIST_OPERATORS, values: [], filterable: true, sortable: false },
  ],
  function: [
    { name: 'name', type: 'string', operators: TEXT_OPERATORS, values: [], filterable: true, sortable: true },
    { name: 'code', type: 'string', operators: TEXT_OPERATORS, values: [], filterable: true, sortable: true },
    { name: 'cartography', type: 'id', operators: LIST_OPERATORS, values: [], filterable: true, sortable: false },
    { name: 'site', type: 'id', operators: LIST_OPERATORS, values: [], filterable: true, sortable: false },
    { name: 'location', type: 'location', operators: LIST_OPERATORS, values: [], filterable: true, sortable: false },
  ],
}

export const LYON = { id: 1, code: 'LYON', name: 'Usine de Lyon', type: 'site' } as const
export const USINAGE = { id: 2, code: 'USI', name: "Atelier d'usinage", type: 'cartography' } as const
export const ASSEMBLAGE = { id: 3, code: 'ASM', name: "Ligne d'assemblage", type: 'cartography' } as const

export const MAP_ITEMS: MapItemName[] = [
  { ...LYON, context: [] },
  { ...USINAGE, context: [LYON] },
  { ...ASSEMBLAGE, context: [LYON] },
  { id: 12, code: 'OPR', name: 'Opérateur régleur', type: 'function', context: [LYON, USINAGE] },
  { id: 20, code: 'REC', name: 'Réception matière', type: 'activity', context: [LYON, USINAGE] },
]

/**
 * POST /querylang/{entityType}/parse for the filters of these tests: blank, or one `field oneOf ids`
 * criterion of an id or location field, or one text criterion.
 */
export function parseAnswer(entityType: 'cartography' | 'function') {
  return async (request: Request) => {
    const { filter, sort } = (await request.json()) as { filter: string; sort: string }
    const keys = sort === '' ? [] : sort.split(',').map((key) => ({ field: key.replace(/^-/, ''), descending: key.startsWith('-') }))
    const match = /^(\w+) (\w+) (.+)$/.exec(filter)
    const field = MAP_FIELDS[entityType].find((f) => f.name === match?.[1])
    if (!match || !field) return json({ filter: null, sort: keys })
    const [, name, operator, value] = match
    const list = field.type === 'id' || field.type === 'location'
    return json({
      filter: {
        kind: 'criterion',
        field: name,
        operator,
        type: field.type,
        value: list ? null : value,
        values: list ? value.split(',').map(Number) : null,
      },
      sort: keys,
    })
  }
}

export const fieldsAnswer = (entityType: 'cartography' | 'function') => () =>
  json({ entityType, fields: MAP_FIELDS[entityType], defaultSort: [{ field: 'name', descending: false }, { field: 'code', descending: false }] })

/** GET /mapping/items/search over MAP_ITEMS, as the server answers it (ignoring case, of the types asked). */
export function searchAnswer(request: Request) {
  const query = new URL(request.url).searchParams
  const name = (query.get('name') ?? '').toLowerCase()
  const types = (query.get('types') ?? '').split(',')
  return json(MAP_ITEMS.filter((item) => types.includes(item.type) && item.name.toLowerCase().includes(name)))
}

/** POST /mapping/items/names over MAP_ITEMS. */
export async function namesAnswer(request: Request) {
  const ids = (await request.clone().json()) as number[]
  return json(ids.flatMap((id) => MAP_ITEMS.filter((item) => item.id === id)))
}
