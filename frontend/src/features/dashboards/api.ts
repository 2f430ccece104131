import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { api, data } from '../../api/client'
import { queryKeys } from '../../api/queryKeys'
import type { components } from '../../api/schema'
import { download } from '../../components/downloads/download'
import { type DashboardShown, EVERY_CHILD_STATE, shownQuery } from '../../components/qualifications/shown'
import { LOAD_FAILURES_SHOWN_BY_PAGE } from '../../lib/loadFailures'

type Schemas = components['schemas']
export type MyDashboard = Schemas['MyDashboard']
export type CurrentPath = MyDashboard['currentPaths'][number]
export type AlertGroup = MyDashboard['alerts'][number]
export type PeriodicModule = MyDashboard['periodicModules'][number]
export type ContributionPeriod = Schemas['ContributionPeriod']
export type TrainingPathDashboard = Schemas['TrainingPathDashboard']
export type GroupProgress = TrainingPathDashboard['groups'][number]
export type GroupTrainingPathDashboard = Schemas['GroupTrainingPathDashboard']
export type UserProgress = GroupTrainingPathDashboard['users'][number]
/** A person's completion level on the path dashboards, as the server tells it with the completion. */
export type CompletionLevel = UserProgress['level']
export type ContributionsBody = Schemas['ContributionsQuery']
export type CartographyQualificationDashboard = Schemas['CartographyDashboard']
export type FunctionCoverage = CartographyQualificationDashboard['coverage'][number]
export type GroupQualificationDashboard = Schemas['GroupDashboard']
export type UserQualificationDashboard = Schemas['UserDashboard']
export type CartographySummary = Schemas['CartographySummary']

// Dashboards show figures computed from other areas (paths graded, history written): each opening asks again.
const fresh = { staleTime: 0 }

export const myDashboardQuery = queryOptions({
  queryKey: queryKeys.dashboards.mine,
  queryFn: () => data(api.GET('/backend/api/v2/dashboards/mine')),
  ...fresh,
})

export const trainingPathDashboardQuery = queryOptions({
  queryKey: queryKeys.dashboards.trainingPaths,
  queryFn: () => data(api.GET('/backend/api/v2/dashboards/trainingPath')),
  meta: LOAD_FAILURES_SHOWN_BY_PAGE,
  ...fresh,
})

/** The cartographies the user sees, each with the figures of its qualification dashboard (the Dashboard manager). */
export const managerCartographiesQuery = queryOptions({
  queryKey: queryKeys.dashboards.managerCartographies,
  queryFn: () => data(api.GET('/backend/api/v2/dashboards/manager/cartographies')),
  meta: LOAD_FAILURES_SHOWN_BY_PAGE,
  ...fresh,
})

export const groupTrainingPathDashboardQuery = (groupId: number) =>
  queryOptions({
    queryKey: queryKeys.dashboards.groupTrainingPaths(groupId),
    queryFn: () => data(api.GET('/backend/api/v2/dashboards/trainingPath/group/{groupId}', { params: { path: { groupId } } })),
    meta: LOAD_FAILURES_SHOWN_BY_PAGE,
    ...fresh,
  })

export const contributionsQuery = (body: ContributionsBody) =>
  queryOptions({
    queryKey: queryKeys.dashboards.contributions(body),
    queryFn: () => data(api.POST('/backend/api/v2/history/contributions', { body })),
    ...fresh,
  })

/** Downloads the contributions as an Excel workbook (writes and views, a row per user), its texts in `language`. */
export const exportContributions = (body: ContributionsBody, language: string) =>
  download(
    api.POST('/backend/api/v2/history/contributions/export', {
      body,
      headers: { 'Accept-Language': language },
      parseAs: 'blob',
    }),
    'contributions.xlsx',
  )

// A qualification dashboard asked again for another legend or another expanded item keeps showing the
// previous answer until the new one is there.
export const cartographyQualificationDashboardQuery = (cartographyId: number, shown: DashboardShown = EVERY_CHILD_STATE) =>
  queryOptions({
    queryKey: queryKeys.dashboards.cartographyQualifications(cartographyId, shown),
    queryFn: () =>
      data(
        api.GET('/backend/api/v2/dashboards/qualifications/cartography/{cartographyId}', {
          params: { path: { cartographyId }, query: shownQuery(shown) },
        }),
      ),
    meta: LOAD_FAILURES_SHOWN_BY_PAGE,
    placeholderData: keepPreviousData,
    ...fresh,
  })

export const groupQualificationDashboardQuery = (groupId: number, shown: DashboardShown = EVERY_CHILD_STATE) =>
  queryOptions({
    queryKey: queryKeys.dashboards.groupQualifications(groupId, shown),
    queryFn: () =>
      data(api.GET('/backend/api/v2/dashboards/qualifications/group/{groupId}', { params: { path: { groupId }, query: shownQuery(shown) } })),
    meta: LOAD_FAILURES_SHOWN_BY_PAGE,
    placeholderData: keepPreviousData,
    ...fresh,
  })

export const userQualificationDashboardQuery = (userId: number, shown: DashboardShown = EVERY_CHILD_STATE) =>
  queryOptions({
    queryKey: queryKeys.dashboards.userQualifications(userId, shown),
    queryFn: () =>
      data(api.GET('/backend/api/v2/dashboards/qualifications/user/{userId}', { params: { path: { userId }, query: shownQuery(shown) } })),
    meta: LOAD_FAILURES_SHOWN_BY_PAGE,
    placeholderData: keepPreviousData,
    ...fresh,
  })

// The skills matrix -----------------------------------------------------------------------------------

export type SkillsMatrix = Schemas['SkillsMatrix']
export type MatrixColumn = SkillsMatrix['columns'][number]
export type MatrixRow = SkillsMatrix['rows'][number]
export type MatrixCell = MatrixRow['cells'][number]
export type CellState = MatrixCell['state']
export type MatrixSort = 'name' | 'held'

/** The matrix's filters and sort, as the page's address and the server's query carry them. */
export interface MatrixFilters {
  groups: number[]
  functions: number[]
  states: CellState[]
  sort: MatrixSort
}

const matrixQuery = (filters: MatrixFilters) => ({
  group: filters.groups.length ? filters.groups : undefined,
  function: filters.functions.length ? filters.functions : undefined,
  state: filters.states.length ? filters.states : undefined,
  sort: filters.sort,
})

export const skillsMatrixQuery = (cartographyId: number, filters: MatrixFilters) =>
  queryOptions({
    queryKey: queryKeys.dashboards.skillsMatrix(cartographyId, filters),
    queryFn: () =>
      data(api.GET('/backend/api/v2/dashboards/cartography/{cartographyId}/matrix', { params: { path: { cartographyId }, query: matrixQuery(filters) } })),
    meta: LOAD_FAILURES_SHOWN_BY_PAGE,
    placeholderData: keepPreviousData,
    ...fresh,
  })

/** Downloads the matrix, with the filters shown, as an Excel workbook or an A4 landscape PDF, its words in `language`. */
export const exportSkillsMatrix = (cartographyId: number, filters: MatrixFilters, format: 'excel' | 'pdf', language: string) => {
  const options = { params: { path: { cartographyId }, query: matrixQuery(filters) }, headers: { 'Accept-Language': language }, parseAs: 'blob' } as const
  return format === 'excel'
    ? download(api.GET('/backend/api/v2/dashboards/cartography/{cartographyId}/matrix/excel', options), 'skills-matrix.xlsx')
    : download(api.GET('/backend/api/v2/dashboards/cartography/{cartographyId}/matrix/pdf', options), 'skills-matrix.pdf')
}

/** Sets a function's minimum of qualified people (perm_QualificationAdmin); the matrices and dashboards are read again. */
export function useSetMinimum() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ functionId, minimum }: { functionId: number; minimum: number }) =>
      data(api.PUT('/backend/api/v2/qualifications/functions/{functionId}/minimum', { params: { path: { functionId } }, body: { minimum } })),
    // The dialog shows a refused value on its field.
    meta: { handledStatuses: [400, 422] },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.dashboards.all }),
  })
}
