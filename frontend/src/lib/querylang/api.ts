import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { api, data } from '../../api/client'
import { isApiError } from '../../api/errors'
import { queryKeys } from '../../api/queryKeys'
import type { SavedFilter } from './types'

/** The server is the one parser of the language; its 400 answers are shown where the text is edited. */
const SHOWN_BY_THE_EDITOR = { handledStatuses: [400] }

/** The fields an entity type offers to filters and sorts; they change only with the server. */
export const fieldsQuery = (entityType: string) =>
  queryOptions({
    queryKey: queryKeys.querylang.fields(entityType),
    queryFn: () => data(api.GET('/backend/api/v2/querylang/{entityType}/fields', { params: { path: { entityType } } })),
    staleTime: Infinity,
  })

/** The trees of a filter and a sort text, or a 400 whose error carries the message and position. */
export const parseQuery = (entityType: string, filter: string, sort = '') =>
  queryOptions({
    queryKey: queryKeys.querylang.parse(entityType, filter, sort),
    queryFn: () =>
      data(
        api.POST('/backend/api/v2/querylang/{entityType}/parse', { params: { path: { entityType } }, body: { filter, sort } }),
      ),
    staleTime: Infinity,
    // The answer depends on the text alone: a refusal stands until the server changes.
    retryOnMount: false,
    meta: SHOWN_BY_THE_EDITOR,
  })

const SAVED_FILTERS_KEY = queryKeys.account.savedFilters

type SavedFilters = Record<string, SavedFilter[]>
/** What the cache keeps: the filters and their version (the answer's ETag), sent back on save. */
interface SavedFiltersRead {
  filters: SavedFilters
  version: string | null
}

/** The signed-in user's saved filters, keyed by entity type. */
export const savedFiltersQuery = queryOptions({
  queryKey: SAVED_FILTERS_KEY,
  queryFn: async (): Promise<SavedFiltersRead> => {
    const { data: filters, response } = await api.GET('/backend/api/v2/account/filters')
    return { filters: filters ?? {}, version: response.headers.get('etag') }
  },
  select: (read) => read.filters,
})

/**
 * Replaces the user's saved filters of one entity type (the server checks names, texts and the one
 * default). The list was built from the version last read: when another window saved meanwhile, the
 * server refuses it (409 staleVersion) rather than erase that change, and the list is read again so
 * that the same action, tried again, starts from it. `shownByCaller`: the answers' statuses that the
 * caller explains itself (a form shows 400 on its fields), instead of the error dialog.
 */
export function useSaveFilters(entityType: string, shownByCaller: number[]) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (filters: SavedFilter[]) => {
      const version = queryClient.getQueryData(savedFiltersQuery.queryKey)?.version
      const headers = version ? { 'If-Match': version } : undefined
      const { response } = await api.POST('/backend/api/v2/account/filters', { body: { entityType, filters }, headers })
      return response.headers.get('etag')
    },
    meta: { handledStatuses: shownByCaller },
    onSuccess: (version, filters) => {
      queryClient.setQueryData(savedFiltersQuery.queryKey, (read) => ({
        filters: { ...read?.filters, [entityType]: filters },
        version,
      }))
      return queryClient.invalidateQueries({ queryKey: SAVED_FILTERS_KEY })
    },
    onError: (error) => {
      if (isApiError(error, 409)) return queryClient.invalidateQueries({ queryKey: SAVED_FILTERS_KEY })
    },
  })
}
