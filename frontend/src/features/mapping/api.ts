import { queryOptions } from '@tanstack/react-query'
import { api, data } from '../../api/client'
import { imageDataUrl } from '../../api/images'
import { queryKeys } from '../../api/queryKeys'
import { download } from '../../components/downloads/download'
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
export type SiteDocument = Schemas['SiteDocumentOut']

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

/** A site's documents page (its DUERP's versions); a failed load shows as the page (Forbidden, NotFound). */
export const siteDocumentsQuery = (siteId: number) =>
  queryOptions({
    queryKey: queryKeys.mapping.documents(siteId),
    queryFn: () => data(api.GET('/backend/api/v2/site/{siteId}/documents', { params: { path: { siteId } } })),
    meta: LOAD_FAILURES_SHOWN_BY_PAGE,
  })

export const generateDuerp = (siteId: number, language: string) =>
  data(
    api.POST('/backend/api/v2/site/{siteId}/documents/duerp', {
      params: { path: { siteId } },
      body: { language: language === 'en' ? 'en' : 'fr' },
    }),
  )

/** A version's PDF or workbook, fetched with the session (the server reads only its header) and saved. */
export const downloadSiteDocument = (siteId: number, document: SiteDocument, fileKind: 'pdf' | 'xlsx') =>
  download(
    api.GET('/backend/api/v2/site/{siteId}/documents/{documentId}/{fileKind}', {
      params: { path: { siteId, documentId: document.id, fileKind } },
      parseAs: 'blob',
    }),
    `duerp-v${document.version}.${fileKind}`,
  )
