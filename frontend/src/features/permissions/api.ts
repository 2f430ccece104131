import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { api, data } from '../../api/client'
import { queryKeys } from '../../api/queryKeys'
import type { components } from '../../api/schema'

export const permissionNamesQuery = queryOptions({
  queryKey: queryKeys.permission.names,
  queryFn: () => data(api.GET('/backend/api/v2/permission')),
  staleTime: Infinity,
})

export const groupPermissionsQuery = queryOptions({
  queryKey: queryKeys.permission.groups,
  queryFn: () => data(api.GET('/backend/api/v2/permission/list')),
})

export function useSaveGroupPermissions() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ groupId, names }: { groupId: number; names: string[] }) =>
      data(api.PUT('/backend/api/v2/permission/group/{groupId}', { params: { path: { groupId } }, body: names })),
    // The signed-in user may belong to the group: their own permissions change too.
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: queryKeys.permission.all }), queryClient.invalidateQueries({ queryKey: queryKeys.account.all })]),
  })
}

type Schemas = components['schemas']
export type TreeNode = Schemas['TreeNode']
export type AllowedItems = Schemas['AllowedItems']
export type AllowedItem = Schemas['AllowedItem']

export const cartographiesTreeQuery = queryOptions({
  queryKey: queryKeys.permission.cartographiesTree,
  queryFn: () => data(api.GET('/backend/api/v2/permission/cartographiesTree')),
})

export const allowedItemsQuery = (groupId: number) =>
  queryOptions({
    queryKey: queryKeys.permission.allowedItems(groupId),
    queryFn: () => data(api.GET('/backend/api/v2/permission/allowedItemsForGroup/{groupId}', { params: { path: { groupId } } })),
  })

export function useSaveAllowedItems() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ groupId, body }: { groupId: number; body: AllowedItems }) =>
      data(api.POST('/backend/api/v2/permission/allowedItemsForGroup/{groupId}', { params: { path: { groupId } }, body })),
    onSuccess: (saved, { groupId }) => {
      queryClient.setQueryData(allowedItemsQuery(groupId).queryKey, saved)
      // What the signed-in user sees of the map may have changed with the group.
      return queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== queryKeys.permission.all[0] && query.queryKey[0] !== queryKeys.account.all[0] })
    },
  })
}
