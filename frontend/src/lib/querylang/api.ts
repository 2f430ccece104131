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

/**
 * A text being typed, checked: its trees, or the parse error as `errors` in a 200 answer. The editor
 * expects refusals while the user types; as 400s, each one would show as a failed request.
 */
export const checkQuery = (entityType: string, filter: string) =>
  queryOptions({
    queryKey: ['querylang', entityType, 'check', filter],
    queryFn: () =>
      data(
        api.POST('/backend/api/v2/querylang/{entityType}/check', { params: { path: { entityType } }, body: { filter, sort: '' } }),
      ),
    staleTime: Infinity,
  })

const SAVED_FILTERS_KEY = queryKeys.account.savedFilters

/** What the cache keeps, as the server answers it: per entity type, the filters and their version. */
type SavedFiltersRead = Record<string, { version: number; filters: SavedFilter[] }>

/** The signed-in user's saved filters, keyed by entity type. */
export const savedFiltersQuery = queryOptions({
  queryKey: SAVED_FILTERS_KEY,
  queryFn: (): Promise<SavedFiltersRead> => data(api.GET('/backend/api/v2/account/filters')),
  select: (read) => Object.fromEntries(Object.entries(read).map(([entityType, { filters }]) => [entityType, filters])),
})

/**
 * Replaces the user's saved filters of one entity type (the server checks names, texts and the one
 * default). The list was built from the version last read, which the save sends: when another window
 * saved meanwhile, the server refuses it (409 staleVersion) rather than erase that change, and the
 * list is read again so that the same action, tried again, starts from it. `shownByCaller`: the
 * answers' statuses that the caller explains itself (a form shows 400 on its fields), instead of the
 * error dialog.
 */
export function useSaveFilters(entityType: string, shownByCaller: number[]) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (filters: SavedFilter[]) => {
      const version = queryClient.getQueryData(savedFiltersQuery.queryKey)?.[entityType]?.version ?? 0
      await data(api.POST('/backend/api/v2/account/filters', { body: { entityType, filters, version } }))
      // A save moves the version to the next one.
      return version + 1
    },
    meta: { handledStatuses: shownByCaller },
    onSuccess: (version, filters) => {
      queryClient.setQueryData(savedFiltersQuery.queryKey, (read) => ({ ...read, [entityType]: { version, filters } }))
      return queryClient.invalidateQueries({ queryKey: SAVED_FILTERS_KEY })
    },
    onError: (error) => {
      if (isApiError(error, 409)) return queryClient.invalidateQueries({ queryKey: SAVED_FILTERS_KEY })
    },
  })
}
