import { queryOptions } from '@tanstack/react-query'
import { api, data } from '../../api/client'
import { activitiesQuery, functionsQuery, searchMapItems, subActivitiesQuery } from '../../api/mapping'
import { queryKeys } from '../../api/queryKeys'
import { printFilter } from '../../lib/querylang/printer'

/** A kind of item of the map a picker may return: the hierarchy's four, and subjects. */
export type SpotItemType = 'site' | 'cartography' | 'activity' | 'function' | 'subject'

/** One step of the path from an item's site down to its parent. */
export interface MapContextEntry {
  type: SpotItemType
  id: number
  name: string
}

/** What a map item picker returns: the item and where it sits. */
export interface MapItemPick extends MapContextEntry {
  context: MapContextEntry[]
}

/** Subjects listed under a function at a time in the tree. */
export const SUBJECT_PAGE_SIZE = 50
/** Subjects found by a search (the map items' search answers at most 30 too). */
const SEARCHED_SUBJECTS = 30

/** The sites with the cartographies the user may see (the sites page reads the same). */
export const sitesQuery = queryOptions({
  queryKey: queryKeys.mapping.sites,
  queryFn: () => data(api.GET('/backend/api/v2/site')),
})

export { activitiesQuery, functionsQuery, subActivitiesQuery }

/** A page of the subjects of one function, by name. */
export function functionSubjects(functionId: number, page: number) {
  return data(
    api.POST('/backend/api/v2/subject/query', {
      body: { filter: `function oneOf ${functionId}`, sort: 'name', page, pageSize: SUBJECT_PAGE_SIZE },
    }),
  )
}

const entry = (item: { type: string; id: number; name: string }): MapContextEntry => ({ type: item.type as SpotItemType, id: item.id, name: item.name })

/** Items of the map (any kind, subjects included) whose name contains `text`, as picks. */
export async function searchMapAndSubjects(text: string): Promise<MapItemPick[]> {
  const filter = printFilter({ kind: 'criterion', field: 'name', operator: 'contains', type: 'string', value: text, values: null })
  const [items, subjects] = await Promise.all([
    searchMapItems(text, ['site', 'cartography', 'activity', 'function']),
    data(api.POST('/backend/api/v2/subject/query', { body: { filter, sort: 'name', page: 1, pageSize: SEARCHED_SUBJECTS } })),
  ])
  return [
    ...items.map((item) => ({ ...entry(item), context: item.context.map(entry) })),
    ...subjects.results.map((subject) => ({ type: 'subject' as const, id: subject.id, name: subject.name, context: (subject.contexts[0] ?? []).map(entry) })),
  ]
}
