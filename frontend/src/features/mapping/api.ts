import { queryOptions } from '@tanstack/react-query'
import { api, data } from '../../api/client'
import { imageDataUrl } from '../../api/images'
import { queryKeys } from '../../api/queryKeys'
import type { components } from '../../api/schema'
import { LOAD_FAILURES_SHOWN_BY_PAGE } from '../../lib/loadFailures'
import type { ListQuery } from '../../lib/querylang/types'

type Schemas = components['schemas']
export type Site = Schemas['SiteOut']
export type CartographyListItem = Schemas['CartographyListItem']
export type Cartography = Schemas['CartographyOut']
export type ActivityNode = Schemas['ActivityNode']
export type MapActivity = Schemas['ActivityOut']
export type Zone = Schemas['ZoneOut']
export type Pictogram = Schemas['PictogramOut']
export type CartographyCard = Schemas['CartographyCard']
export type FunctionCard = Schemas['FunctionCard']
export type CartographyCoverage = Schemas['CartographyCoverage']

export const sitesQuery = queryOptions({
  queryKey: queryKeys.mapping.sites,
  queryFn: () => data(api.GET('/backend/api/v2/site')),
})

export const cartographyQuery = (cartographyId: number) =>
  queryOptions({
    queryKey: queryKeys.mapping.cartography(cartographyId),
    queryFn: () => data(api.GET('/backend/api/v2/cartography/{cartographyId}', { params: { path: { cartographyId } } })),
    meta: LOAD_FAILURES_SHOWN_BY_PAGE,
  })

export const cartographyImageQuery = (cartographyId: number) =>
  queryOptions({
    queryKey: queryKeys.mapping.cartographyImage(cartographyId),
    queryFn: () =>
      imageDataUrl(api.GET('/backend/api/v2/cartography/{cartographyId}/image', { params: { path: { cartographyId } }, parseAs: 'blob' })),
    staleTime: Infinity,
  })

export const zonesQuery = (cartographyId: number) =>
  queryOptions({
    queryKey: queryKeys.mapping.zones(cartographyId),
    queryFn: () => data(api.GET('/backend/api/v2/cartography/{cartographyId}/zones', { params: { path: { cartographyId } } })),
  })

export const pictogramsQuery = (cartographyId: number) =>
  queryOptions({
    queryKey: queryKeys.mapping.pictograms(cartographyId),
    queryFn: () => data(api.GET('/backend/api/v2/pictos/{cartographyId}', { params: { path: { cartographyId } } })),
  })

export const pictogramImageQuery = (cartographyId: number, pictogramId: number) =>
  queryOptions({
    queryKey: queryKeys.mapping.pictogramImage(cartographyId, pictogramId),
    queryFn: () =>
      imageDataUrl(
        api.GET('/backend/api/v2/pictos/{cartographyId}/{pictogramId}/image', {
          params: { path: { cartographyId, pictogramId } },
          parseAs: 'blob',
        }),
      ),
    staleTime: Infinity,
  })

/**
 * Tomorrow's coverage of the cartography's functions (perm_TableauBord): each function's outlook, which
 * the plan colours its zone by. Figures computed from gradings: each opening asks again.
 */
export const cartographyCoverageQuery = (cartographyId: number) =>
  queryOptions({
    queryKey: queryKeys.dashboards.cartographyCoverage(cartographyId),
    queryFn: () => data(api.GET('/backend/api/v2/dashboards/cartography/{cartographyId}/coverage', { params: { path: { cartographyId } } })),
    staleTime: 0,
  })

/** FilteredCartographies: a page of the cartographies the user may see, each with its site. */
export function queryCartographies(body: ListQuery) {
  return data(api.POST('/backend/api/v2/cartography/query', { body }))
}

/** FilteredFunctions: a page of the functions the user may see, each with its site and cartography. */
export function queryFunctions(body: ListQuery) {
  return data(api.POST('/backend/api/v2/function/query', { body }))
}
