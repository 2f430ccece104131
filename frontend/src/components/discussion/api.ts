import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { api, data } from '../../api/client'
import { queryKeys } from '../../api/queryKeys'
import type { components } from '../../api/schema'

type Schemas = components['schemas']
export type Discussion = Schemas['DiscussionOut']
export type Message = Schemas['MessageOut']
export type SystemInfo = Schemas['SystemInfo']
export type UnreadDiscussion = Schemas['UnreadDiscussion']

/** The form field the server names in its refusals of a message: shown under the text, not in the error dialog. */
export const MESSAGE_FIELDS = ['content']

export const discussionQuery = (discussionId: number) =>
  queryOptions({
    queryKey: queryKeys.discussions.discussion(discussionId),
    queryFn: () => data(api.GET('/backend/api/v2/discussion/{discussionId}', { params: { path: { discussionId } } })),
    // The page around the panel says when its item is hidden or gone.
    meta: { handledStatuses: [403, 404] },
  })

const REFRESH_EVERY = 3 * 60_000

/** The teamwork menu: discussions with messages from others since the user last read them. */
export const unreadDiscussionsQuery = queryOptions({
  queryKey: queryKeys.discussions.unread,
  queryFn: () => data(api.GET('/backend/api/v2/discussion/unread')),
  refetchInterval: REFRESH_EVERY,
  refetchOnWindowFocus: 'always',
})

/** Posts a message; the discussion (and what is unread, which reading it changes) is read again. */
export function usePostMessage(discussionId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (content: string) =>
      data(api.POST('/backend/api/v2/discussion/{discussionId}', { params: { path: { discussionId } }, body: { content } })),
    meta: { formFields: MESSAGE_FIELDS },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.discussions.all }),
  })
}
