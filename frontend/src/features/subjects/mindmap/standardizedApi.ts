import { queryOptions } from '@tanstack/react-query'
import { api, data } from '../../../api/client'
import { queryKeys } from '../../../api/queryKeys'
import { LOAD_FAILURES_SHOWN_BY_PAGE } from '../../../lib/loadFailures'
import type { DifferenceKind, StandardizedMindMap } from './types'

/** The answer when a subject was never standardized (no copy of its tree is kept). */
export const NOT_STANDARDIZED = 'notStandardized'

/** The read-only copy kept by the last standardization, and how the live tree differs from it. */
export const standardizedMindMapQuery = (subjectId: number) =>
  queryOptions({
    queryKey: [...queryKeys.subjects.mindMap(subjectId), 'standardized'] as const,
    queryFn: (): Promise<StandardizedMindMap> =>
      data(api.GET('/backend/api/v2/subject/{subjectId}/mindmap/standardized', { params: { path: { subjectId } } })),
    meta: LOAD_FAILURES_SHOWN_BY_PAGE,
    // Anyone may change the live tree meanwhile: each opening compares again.
    staleTime: 0,
  })

/** The kinds of difference of each node that differs, by code (the canvas' and outline's `marks`). */
export function differenceMarks(differences: StandardizedMindMap['differences']): Record<number, DifferenceKind[]> {
  return Object.fromEntries(differences.map((difference) => [difference.code, difference.kinds]))
}
