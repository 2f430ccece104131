import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { api, data } from '../../api/client'
import type { ErrorHandlingMeta } from '../../api/errorReports'
import { queryKeys } from '../../api/queryKeys'
import type { components } from '../../api/schema'
import { type DashboardShown, EVERY_CHILD_STATE, shownQuery } from '../../components/qualifications/shown'
import { LOAD_FAILURES_SHOWN_BY_PAGE } from '../../lib/loadFailures'
import type { ListQuery } from '../../lib/querylang/types'

type Schemas = components['schemas']
export type Qualification = Schemas['QualificationOut']
export type QualificationCard = Schemas['QualificationCard']
export type QualificationSave = Schemas['QualificationSave']
export type QualificationCan = Qualification['can']
export type DashboardBy = 'user' | 'module'

const byId = (qualificationId: number) => ({ params: { path: { qualificationId } } })

export const queryQualifications = (body: ListQuery) => data(api.POST('/backend/api/v2/qualifications/query', { body }))

export const qualificationQuery = (qualificationId: number) =>
  queryOptions({
    queryKey: queryKeys.qualifications.qualification(qualificationId),
    queryFn: () => data(api.GET('/backend/api/v2/qualifications/{qualificationId}', byId(qualificationId))),
    meta: LOAD_FAILURES_SHOWN_BY_PAGE,
  })

/** The qualification's dashboard (perm_TableauBord): its people with their modules, or its modules with their people. */
export const qualificationDashboardQuery = (qualificationId: number, by: DashboardBy, shown: DashboardShown = EVERY_CHILD_STATE) =>
  queryOptions({
    queryKey: queryKeys.qualifications.dashboard(qualificationId, by, shown),
    queryFn: () =>
      data(
        api.GET('/backend/api/v2/qualifications/{qualificationId}/dashboard', {
          params: { path: { qualificationId }, query: { by, ...shownQuery(shown) } },
        }),
      ),
    placeholderData: keepPreviousData,
    // Validities change with every grading elsewhere, and with the day: each opening asks again.
    staleTime: 0,
  })

/** Training modules whose name contains `name`, enabled or not (the form's module picker). */
export const moduleSearchQuery = (name: string) =>
  queryOptions({
    queryKey: queryKeys.qualifications.moduleSearch(name),
    queryFn: () => data(api.GET('/backend/api/v2/training/module/search', { params: { query: { name } } })),
    staleTime: 60_000,
  })

/** The fields of the form whose server errors it shows on them. */
export const QUALIFICATION_FIELDS = ['name', 'cartographies', 'qualifiableGroups', 'modules', 'functions', 'requalificationWindowDays', 'defaultReferents']

/** The form shows refused saves itself: errors on its fields, a stale version. */
const FORM: ErrorHandlingMeta = { handledStatuses: [400, 409, 422] }

/** A change of qualifications: the page takes the answer, lists and dashboards read again. */
function useQualificationsChanged() {
  const queryClient = useQueryClient()
  return async (qualification?: Qualification) => {
    if (qualification) queryClient.setQueryData(qualificationQuery(qualification.id).queryKey, qualification)
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.qualifications.list }),
      queryClient.invalidateQueries({
        queryKey: queryKeys.qualifications.all,
        predicate: (query) => query.queryKey[2] === 'dashboard',
      }),
    ])
  }
}

export function useCreateQualification() {
  const changed = useQualificationsChanged()
  return useMutation({
    mutationFn: (body: QualificationSave) => data(api.POST('/backend/api/v2/qualifications', { body })),
    meta: FORM,
    onSuccess: () => changed(),
  })
}

export function useUpdateQualification() {
  const changed = useQualificationsChanged()
  return useMutation({
    mutationFn: ({ qualificationId, body }: { qualificationId: number; body: QualificationSave & { version: number } }) =>
      data(api.POST('/backend/api/v2/qualifications/{qualificationId}', { ...byId(qualificationId), body })),
    meta: FORM,
    onSuccess: changed,
  })
}

/** Its page then leaves it (see useForgetQualification). */
export function useDeleteQualification() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (qualificationId: number) => api.DELETE('/backend/api/v2/qualifications/{qualificationId}', byId(qualificationId)).then(() => undefined),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.qualifications.list }),
  })
}

/** Forgets a deleted qualification once its page is left (the page would read it again, and find it gone). */
export function useForgetQualification() {
  const queryClient = useQueryClient()
  return (qualificationId: number) => queryClient.removeQueries({ queryKey: queryKeys.qualifications.qualification(qualificationId), exact: true })
}
