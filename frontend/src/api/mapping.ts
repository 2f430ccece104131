import { queryOptions } from '@tanstack/react-query'
import { api, data } from './client'
import { queryKeys } from './queryKeys'
import type { MapItemType } from './types'

// The map's hierarchy as other areas read it too (a subject's form picks its cartography, function
// and activity; a function page lists its activities). The map's own pages keep the rest in
// features/mapping/api.ts.

/** Every cartography the user may see, with its site. */
export const cartographiesQuery = queryOptions({
  queryKey: queryKeys.mapping.cartographies,
  queryFn: () => data(api.GET('/backend/api/v2/cartography')),
})

export const functionsQuery = (cartographyId: number) =>
  queryOptions({
    queryKey: queryKeys.mapping.functions(cartographyId),
    queryFn: () => data(api.GET('/backend/api/v2/cartography/{cartographyId}/functions', { params: { path: { cartographyId } } })),
  })

export const activitiesQuery = (cartographyId: number) =>
  queryOptions({
    queryKey: queryKeys.mapping.activities(cartographyId),
    queryFn: () => data(api.GET('/backend/api/v2/cartography/{cartographyId}/activities', { params: { path: { cartographyId } } })),
  })

export const subActivitiesQuery = (activityId: number) =>
  queryOptions({
    queryKey: queryKeys.mapping.subActivities(activityId),
    queryFn: () => data(api.GET('/backend/api/v2/activity/{activityId}/subActivities', { params: { path: { activityId } } })),
  })

/** At most 30 visible map items of these types whose name contains `name` (ignoring case and accents). */
export function searchMapItems(name: string, types: readonly MapItemType[]) {
  return data(api.GET('/backend/api/v2/mapping/items/search', { params: { query: { name, types: types.join(',') } } }))
}

/** The visible map items of these ids, with their contexts; hidden and unknown ids are left out. */
export function mapItemNames(ids: number[]) {
  return data(api.POST('/backend/api/v2/mapping/items/names', { body: ids }))
}
