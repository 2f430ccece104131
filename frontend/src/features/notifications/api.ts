import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { api, data } from '../../api/client'
import { queryKeys } from '../../api/queryKeys'
import type { components } from '../../api/schema'

type Schemas = components['schemas']
export type Preference = Schemas['PreferenceOut']
export type Mode = Schemas['Mode']
export type KindGroup = Schemas['KindGroup']

/** The modes, in the order the page offers them. */
export const MODES = ['now', 'digest', 'never'] as const satisfies readonly Mode[]
/** The groups, in the order the page shows them. */
export const KIND_GROUPS = ['mediations', 'training', 'qualifications', 'subjects', 'files'] as const satisfies readonly KindGroup[]

/** Every kind of message the signed-in person chooses for, how they receive it and its default. */
export const preferencesQuery = queryOptions({
  queryKey: queryKeys.notifications.preferences,
  queryFn: () => data(api.GET('/backend/api/v2/notifications/preferences')),
})

/** Saves the kinds given; the page shows a refusal (400) itself and keeps what was chosen. */
export function useSavePreferences() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (preferences: { kind: string; mode: Mode }[]) =>
      data(api.PUT('/backend/api/v2/notifications/preferences', { body: { preferences } })),
    meta: { handledStatuses: [400, 422] },
    onSuccess: (saved) => queryClient.setQueryData(queryKeys.notifications.preferences, saved),
  })
}
