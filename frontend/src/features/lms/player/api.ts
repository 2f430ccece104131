import { queryOptions } from '@tanstack/react-query'
import { api, data } from '../../../api/client'
import { queryKeys } from '../../../api/queryKeys'
import type { components } from '../../../api/schema'

export type CourseProgress = components['schemas']['CourseProgress']

/** The signed-in learner's progress through a course's units, read again after each commit of the SCO. */
export const courseProgressQuery = (courseId: number) =>
  queryOptions({
    queryKey: [...queryKeys.courses.tree(courseId), 'progress'] as const,
    queryFn: () => data(api.GET('/backend/api/v2/lms/courses/{courseId}/progress', { params: { path: { courseId } } })),
    meta: { handledStatuses: [404] },
  })

/**
 * A launch of the unit: its address, to frame. A query of its own per opening (`opening` counts the
 * learner's "open again"), never refetched: each launch is a new session of the unit.
 */
export const unitLaunchQuery = (itemId: number, opening: number, mode?: 'Browse' | 'Review') =>
  queryOptions({
    queryKey: ['lms', 'launch', itemId, opening, mode ?? 'Normal'] as const,
    queryFn: () => data(api.POST('/backend/api/v2/lms/items/{itemId}/launch', { params: { path: { itemId } }, body: mode ? { mode } : undefined })),
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
    meta: { handledStatuses: [404] },
  })
