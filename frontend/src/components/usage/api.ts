import { keepPreviousData, queryOptions } from '@tanstack/react-query'
import { api, data } from '../../api/client'
import { queryKeys } from '../../api/queryKeys'
import type { components } from '../../api/schema'
import type { UsageWindow } from './periods'

export type Contributions = components['schemas']['Contributions']

/** What a chart counts: map items (site, cartography, activity or function ids) and subjects. */
export interface UsageTarget {
  itemIds?: number[]
  subjectIds?: number[]
}

export const contributionsQuery = (target: UsageTarget, window: UsageWindow) => {
  const body = { userIds: [], groupIds: [], itemIds: target.itemIds ?? [], subjectIds: target.subjectIds ?? [], ...window }
  return queryOptions({
    queryKey: queryKeys.history.contributions(body),
    queryFn: () => data(api.POST('/backend/api/v2/history/contributions', { body })),
    // Switching between weeks and months keeps the chart in place until the other figures arrive.
    placeholderData: keepPreviousData,
    // The server decides: a refusal (the user lost perm_VisuTrack meanwhile) hides the chart.
    meta: { handledStatuses: [403, 404] },
  })
}
