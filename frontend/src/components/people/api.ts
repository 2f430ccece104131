import { queryOptions } from '@tanstack/react-query'
import { api, data } from '../../api/client'
import { queryKeys } from '../../api/queryKeys'

/** Users whose name contains `name`, as pickers hold them. */
export const peopleSearchQuery = (name: string) =>
  queryOptions({
    queryKey: queryKeys.people.search(name),
    queryFn: async () =>
      (await data(api.GET('/backend/api/v2/user/search', { params: { query: { name } } }))).map((user) => ({ id: user.id, name: user.displayName })),
    enabled: name.trim() !== '',
    staleTime: 60_000,
  })

/** Groups whose name contains `name`. */
export const groupSearchQuery = (name: string) =>
  queryOptions({
    queryKey: queryKeys.people.groups(name),
    queryFn: () => data(api.GET('/backend/api/v2/user/searchGroup', { params: { query: { name } } })),
    enabled: name.trim() !== '',
    staleTime: 60_000,
  })
