import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { api, data } from '../../api/client'
import { queryKeys } from '../../api/queryKeys'
import { withProgress } from '../../api/upload'
import type { components } from '../../api/schema'
import type { GroupRef } from '../../api/types'
import type { ValueSources } from '../../components/lists/types'
import type { ListQuery } from '../../lib/querylang/types'

type Schemas = components['schemas']
export type UserCreate = Schemas['UserCreate']
export type UserUpdate = Schemas['UserUpdate']
export type ImportReport = Schemas['ImportReport']
export type ImportRow = Schemas['RowOutcome']

export const fetchUsers = (query: ListQuery) => data(api.POST('/backend/api/v2/user/query', { body: query }))

const groupOptions = (groups: GroupRef[]) => groups.map((group) => ({ id: group.id, label: group.name }))

/** The members of the users list's id fields: groups, searched by name. */
export const USER_FILTER_SOURCES: ValueSources = {
  group: {
    search: async (name) => groupOptions(await data(api.GET('/backend/api/v2/user/searchGroup', { params: { query: { name } } }))),
    labels: async (ids) => {
      const numeric = ids.filter((id): id is number => typeof id === 'number')
      return numeric.length === 0 ? [] : groupOptions(await data(api.POST('/backend/api/v2/user/getGroupNames', { body: numeric })))
    },
  },
}

export const groupsQuery = queryOptions({
  queryKey: queryKeys.users.groups,
  queryFn: () => data(api.GET('/backend/api/v2/user/groups')),
})

/** A mutation of users or groups; what is shown of them (and of permissions) is read again afterwards. */
function useUsersMutation<V, R>(mutationFn: (variables: V) => Promise<R>, formFields?: string[], handledStatuses?: number[]) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn,
    meta: formFields ? { formFields } : handledStatuses && { handledStatuses },
    onSuccess: () =>
      Promise.all(
        [queryKeys.users.all, queryKeys.permission.all, queryKeys.account.all].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
      ),
  })
}

export const USER_FIELDS = ['login', 'firstName', 'lastName', 'externalId', 'email', 'language', 'password', 'groupIds']
export const PASSWORD_FIELDS = ['password']
export const GROUP_FIELDS = ['name']

export const useCreateUser = () =>
  useUsersMutation((body: UserCreate) => data(api.PUT('/backend/api/v2/user/create', { body })), USER_FIELDS)

export const useUpdateUser = () =>
  useUsersMutation(
    ({ userId, body }: { userId: number; body: UserUpdate }) =>
      data(api.POST('/backend/api/v2/user/byId/{userId}', { params: { path: { userId } }, body })),
    USER_FIELDS,
  )

export const useChangePassword = () =>
  useUsersMutation(
    ({ userId, password }: { userId: number; password: string }) =>
      data(api.POST('/backend/api/v2/user/changePassword/{userId}', { params: { path: { userId } }, body: { password } })),
    PASSWORD_FIELDS,
  )

export const useDeleteUser = () =>
  useUsersMutation((userId: number) => data(api.DELETE('/backend/api/v2/user/byId/{userId}', { params: { path: { userId } } })))

/** Deactivate a person who left, or reactivate them. */
export const useSetActive = () =>
  useUsersMutation(({ userId, active }: { userId: number; active: boolean }) =>
    active
      ? data(api.POST('/backend/api/v2/user/byId/{userId}/reactivate', { params: { path: { userId } } }))
      : data(api.POST('/backend/api/v2/user/byId/{userId}/deactivate', { params: { path: { userId } } })),
  )

export interface ImportRequest {
  file: File
  dryRun: boolean
  deactivateMissing: boolean
  onProgress: (done: number) => void
}

/** Sends a people file as the raw body (a dry run, or applied), reporting the upload's progress; the import tab
 * shows the refusals itself (a file it cannot read, too big, the last administrator). */
export const useImportPeople = () =>
  useUsersMutation(
    ({ file, dryRun, deactivateMissing, onProgress }: ImportRequest) =>
      data(
        api.POST('/backend/api/v2/user/import', {
          params: { query: { dryRun, deactivateMissing } },
          headers: { 'Content-Type': file.type || 'text/csv' },
          ...withProgress(file, onProgress),
        }),
      ),
    undefined,
    [400, 409, 413],
  )

export const useCreateGroup = () =>
  useUsersMutation((name: string) => data(api.PUT('/backend/api/v2/user/group', { body: { name } })), GROUP_FIELDS)

export const useRenameGroup = () =>
  useUsersMutation(
    ({ groupId, name }: { groupId: number; name: string }) =>
      data(api.POST('/backend/api/v2/user/group/{groupId}', { params: { path: { groupId } }, body: { name } })),
    GROUP_FIELDS,
  )

export const useDeleteGroup = () =>
  useUsersMutation((groupId: number) => data(api.DELETE('/backend/api/v2/user/group/{groupId}', { params: { path: { groupId } } })))

export type ApiToken = Schemas['ApiTokenOut']
export type ApiTokenCreate = Schemas['ApiTokenCreate']
export type ApiTokenCreated = Schemas['ApiTokenCreated']
export type ApiTokenScope = ApiTokenCreate['scope']
export const API_TOKEN_SCOPES = ['scim'] as const satisfies readonly ApiTokenScope[]
export const API_TOKEN_FIELDS = ['name', 'scope']

/** Every API token, live ones first; never their values. */
export const apiTokensQuery = queryOptions({
  queryKey: queryKeys.users.apiTokens,
  queryFn: () => data(api.GET('/backend/api/v2/apiToken/list')),
})

/** A change of the API tokens; the list is read again even after a refusal (another administrator may have revoked one). */
function useApiTokensMutation<V, R>(mutationFn: (variables: V) => Promise<R>, meta: { formFields?: string[]; handledStatuses?: number[] }) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn,
    meta,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.users.apiTokens }),
  })
}

/** A new token; its value is in this answer only. */
export const useCreateApiToken = () =>
  useApiTokensMutation((body: ApiTokenCreate) => data(api.POST('/backend/api/v2/apiToken/create', { body })), { formFields: API_TOKEN_FIELDS })

/** The tokens tab shows the refusals itself: already revoked (409), gone (404). */
export const useRevokeApiToken = () =>
  useApiTokensMutation(
    (tokenId: number) => data(api.POST('/backend/api/v2/apiToken/byId/{tokenId}/revoke', { params: { path: { tokenId } } })),
    { handledStatuses: [404, 409] },
  )

export type MessageStatus = Schemas['MessageStatus']
export type OutboxCard = Schemas['OutboxCard']
export type OutboxMessage = Schemas['OutboxMessageOut']

export const MESSAGE_STATUSES = ['queued', 'held', 'sending', 'sent', 'digested', 'failed'] as const satisfies readonly MessageStatus[]
/** The server's page size of the outbox (notifications.service). */
export const OUTBOX_PAGE_SIZE = 50
/** While messages wait for a mail server that is set, the outbox is read again this often to show them leave. */
const WHILE_SENDING_MS = 5000

/** One page of the outbox (the e-mails Spot sends), newest first, of one status or all, with the count of each status. */
export const outboxQuery = (status: MessageStatus | undefined, page: number) =>
  queryOptions({
    queryKey: queryKeys.notifications.outbox(status ?? 'all', page),
    queryFn: () => data(api.GET('/backend/api/v2/notifications/outbox', { params: { query: { status, page } } })),
    // Another status or page replaces the table without it blinking away.
    placeholderData: keepPreviousData,
    refetchInterval: (query) => {
      const shown = query.state.data
      return shown?.sendingEnabled && (shown.counts.queued ?? 0) + (shown.counts.sending ?? 0) > 0 ? WHILE_SENDING_MS : false
    },
  })

/** One message as it left: its plain text, its HTML and its invitation; the dialog shows a 404 itself. */
export const outboxMessageQuery = (messageId: number) =>
  queryOptions({
    queryKey: queryKeys.notifications.message(messageId),
    queryFn: () => data(api.GET('/backend/api/v2/notifications/outbox/{messageId}', { params: { path: { messageId } } })),
    meta: { handledStatuses: [404] },
  })

/** A test message to the signed-in person, in their language; the page shows the 400 of one without an address. */
export function useSendTestMessage() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => data(api.POST('/backend/api/v2/notifications/outbox/test')),
    meta: { handledStatuses: [400] },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.notifications.all }),
  })
}
