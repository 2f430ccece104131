import { queryOptions } from '@tanstack/react-query'
import { api, data } from '../../api/client'
import type { components } from '../../api/schema'
import type { ListQuery } from '../../lib/querylang/types'

type Schemas = components['schemas']
export type Site = Schemas['SiteOut']
export type CartographyListItem = Schemas['CartographyListItem']
export type Cartography = Schemas['CartographyOut']
export type ActivityNode = Schemas['ActivityNode']
export type MapActivity = Schemas['ActivityOut']
export type Zone = Schemas['ZoneOut']
export type Pictogram = Schemas['PictogramOut']
export type ContextEntry = Schemas['ContextEntry']
export type CartographyCard = Schemas['CartographyCard']
export type FunctionCard = Schemas['FunctionCard']
export type MapItemName = Schemas['MapItemName']
export type MapItemType = MapItemName['type']

/** Pages that show a failed load themselves (Forbidden, NotFound) rather than in the error dialog. */
export const LOAD_FAILURES_SHOWN_BY_PAGE = { handledStatuses: [400, 403, 404, 422] }

/**
 * An image of the API as a data URL: the server reads the session from a header only, so an
 * <img> cannot fetch it directly; a data URL also serves the PDF export as it is.
 */
export async function imageDataUrl(image: Promise<{ data?: Blob }>): Promise<string> {
  const blob = await data(image)
  return new Promise((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => resolve(reader.result as string)
    reader.onerror = () => reject(reader.error ?? new Error('could not load image'))
    reader.readAsDataURL(blob)
  })
}

export const sitesQuery = queryOptions({
  queryKey: ['mapping', 'sites'],
  queryFn: () => data(api.GET('/backend/api/v2/site')),
})

/** Every cartography the user may see, with its site. */
export const cartographiesQuery = queryOptions({
  queryKey: ['mapping', 'cartographies'],
  queryFn: () => data(api.GET('/backend/api/v2/cartography')),
})

export const cartographyQuery = (cartographyId: number) =>
  queryOptions({
    queryKey: ['mapping', 'cartography', cartographyId],
    queryFn: () => data(api.GET('/backend/api/v2/cartography/{cartographyId}', { params: { path: { cartographyId } } })),
    meta: LOAD_FAILURES_SHOWN_BY_PAGE,
  })

export const cartographyImageQuery = (cartographyId: number) =>
  queryOptions({
    queryKey: ['mapping', 'cartography', cartographyId, 'image'],
    queryFn: () =>
      imageDataUrl(api.GET('/backend/api/v2/cartography/{cartographyId}/image', { params: { path: { cartographyId } }, parseAs: 'blob' })),
    staleTime: Infinity,
  })

export const zonesQuery = (cartographyId: number) =>
  queryOptions({
    queryKey: ['mapping', 'cartography', cartographyId, 'zones'],
    queryFn: () => data(api.GET('/backend/api/v2/cartography/{cartographyId}/zones', { params: { path: { cartographyId } } })),
  })

export const pictogramsQuery = (cartographyId: number) =>
  queryOptions({
    queryKey: ['mapping', 'cartography', cartographyId, 'pictograms'],
    queryFn: () => data(api.GET('/backend/api/v2/pictos/{cartographyId}', { params: { path: { cartographyId } } })),
  })

export const pictogramImageQuery = (cartographyId: number, pictogramId: number) =>
  queryOptions({
    queryKey: ['mapping', 'cartography', cartographyId, 'pictograms', pictogramId],
    queryFn: () =>
      imageDataUrl(
        api.GET('/backend/api/v2/pictos/{cartographyId}/{pictogramId}/image', {
          params: { path: { cartographyId, pictogramId } },
          parseAs: 'blob',
        }),
      ),
    staleTime: Infinity,
  })

export const functionsQuery = (cartographyId: number) =>
  queryOptions({
    queryKey: ['mapping', 'cartography', cartographyId, 'functions'],
    queryFn: () => data(api.GET('/backend/api/v2/cartography/{cartographyId}/functions', { params: { path: { cartographyId } } })),
  })

export const activitiesQuery = (cartographyId: number) =>
  queryOptions({
    queryKey: ['mapping', 'cartography', cartographyId, 'activities'],
    queryFn: () => data(api.GET('/backend/api/v2/cartography/{cartographyId}/activities', { params: { path: { cartographyId } } })),
  })

export const subActivitiesQuery = (activityId: number) =>
  queryOptions({
    queryKey: ['mapping', 'activity', activityId, 'subActivities'],
    queryFn: () => data(api.GET('/backend/api/v2/activity/{activityId}/subActivities', { params: { path: { activityId } } })),
  })

/** FilteredCartographies: a page of the cartographies the user may see, each with its site. */
export function queryCartographies(body: ListQuery) {
  return data(api.POST('/backend/api/v2/cartography/query', { body }))
}

/** FilteredFunctions: a page of the functions the user may see, each with its site and cartography. */
export function queryFunctions(body: ListQuery) {
  return data(api.POST('/backend/api/v2/function/query', { body }))
}

/** At most 30 visible map items of these types whose name contains `name` (ignoring case and accents). */
export function searchMapItems(name: string, types: readonly MapItemType[]) {
  return data(api.GET('/backend/api/v2/mapping/items/search', { params: { query: { name, types: types.join(',') } } }))
}

/** The visible map items of these ids, with their contexts; hidden and unknown ids are left out. */
export function mapItemNames(ids: number[]) {
  return data(api.POST('/backend/api/v2/mapping/items/names', { body: ids }))
}
