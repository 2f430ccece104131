import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { api, data } from '../../api/client'
import type { SavedFilter } from './types'

/** The server is the one parser of the language; its 400 answers are shown where the text is edited. */
const SHOWN_BY_THE_EDITOR = { handledStatuses: [400] }

/** The fields an entity type offers to filters and sorts; they change only with the server. */
export const fieldsQuery = (entityType: string) =>
  queryOptions({
    queryKey: ['querylang', entityType, 'fields'],
    queryFn: () => data(api.GET('/backend/api/v2/querylang/{entityType}/fields', { params: { path: { entityType } } })),
    staleTime: Infinity,
  })

/** The trees of a filter and a sort text, or a 400 whose error carries the message and position. */
export const parseQuery = (entityType: string, filter: string, sort = '') =>
  queryOptions({
    queryKey: ['querylang', entityType, 'parse', filter, sort],
    queryFn: () =>
      data(
        api.POST('/backend/api/v2/querylang/{entityType}/parse', { params: { path: { entityType } }, body: { filter, sort } }),
      ),
    staleTime: Infinity,
    // The answer depends on the text alone: a refusal stands until the server changes.
    retryOnMount: false,
    meta: SHOWN_BY_THE_EDITOR,
  })

const SAVED_FILTERS_KEY = ['account', 'filters'] as const

/** The signed-in user's saved filters, keyed by entity type. */
export const savedFiltersQuery = queryOptions({
  queryKey: SAVED_FILTERS_KEY,
  queryFn: () => data(api.GET('/backend/api/v2/account/filters')),
})

/**
 * Replaces the user's saved filters of one entity type (the server checks names, texts and the one
 * default). `showsOwnErrors`: the caller shows the 400 answers itself (a form), not the error dialog.
 */
export function useSaveFilters(entityType: string, showsOwnErrors = false) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (filters: SavedFilter[]) =>
      data(api.POST('/backend/api/v2/account/filters', { body: { entityType, filters } })),
    meta: showsOwnErrors ? SHOWN_BY_THE_EDITOR : undefined,
    onSuccess: (_answer, filters) => {
      queryClient.setQueryData(savedFiltersQuery.queryKey, (saved) => ({ ...saved, [entityType]: filters }))
      return queryClient.invalidateQueries({ queryKey: SAVED_FILTERS_KEY })
    },
  })
}
