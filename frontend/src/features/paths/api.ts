import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { api, data } from '../../api/client'
import type { ErrorHandlingMeta } from '../../api/errorReports'
import { queryKeys } from '../../api/queryKeys'
import type { components } from '../../api/schema'
import { LOAD_FAILURES_SHOWN_BY_PAGE } from '../../lib/loadFailures'
import type { ListQuery } from '../../lib/querylang/types'

type Schemas = components['schemas']
export type Path = Schemas['PathOut']
export type PathCard = Schemas['PathCard']
export type PathCreate = Schemas['PathCreate']
export type PathUpdate = Schemas['PathUpdate']
/** What the form sends for a new path as for an edited one (the learners or the version aside). */
export type PathSave = Omit<PathCreate, 'learnerIds' | 'learnerGroupIds'>
export type PathCan = Schemas['PathCan']
export type PathFieldsCan = Schemas['PathFieldsCan']
export type AssignedModule = Schemas['AssignedModule']
export type ModuleCan = Schemas['AssignedModuleCan']
export type Result = AssignedModule['results'][number]
export type Grading = Schemas['Grading']
export type HistoryEntry = Schemas['HistoryEntry']
export type ClosingWarning = Path['closingWarnings'][number]
export type Person = Schemas['Person']

const byId = (trainingPathId: number) => ({ params: { path: { trainingPathId } } })

export const queryPaths = (body: ListQuery) => data(api.POST('/backend/api/v2/training/path/query', { body }))

/** A path as its view and its edit form show it; every action answers it, and takes its place here. */
export const pathQueryOptions = (pathId: number) =>
  queryOptions({
    queryKey: queryKeys.trainingPaths.detail(pathId),
    queryFn: () => data(api.GET('/backend/api/v2/training/path/{trainingPathId}', byId(pathId))),
    meta: LOAD_FAILURES_SHOWN_BY_PAGE,
    // Its progress is computed on each read (elements done elsewhere): every opening asks again.
    staleTime: 0,
  })

/** Enabled modules whose name contains `name` (the form's module picker). */
export const moduleSearchQuery = (name: string) =>
  queryOptions({
    queryKey: queryKeys.trainingPaths.moduleSearch(name),
    queryFn: () => data(api.GET('/backend/api/v2/training/module/search', { params: { query: { name, enabled: true } } })),
    staleTime: 60_000,
  })

/** The members of these groups (the form expands groups to learners: one path per learner). */

/** The fields of the path form whose server errors it shows on them (assignedModules[2].referents included). */
export const PATH_FIELDS = ['title', 'reference', 'learnerIds', 'startDate', 'stopDate', 'passThreshold', 'visibleByPersons', 'visibleByGroups', 'assignedModules']

/** The form shows refused saves itself: errors on its fields and on single assigned modules. */
const FORM: ErrorHandlingMeta = { handledStatuses: [400, 422] }

/** A change of paths: the lists and the bell read again; the path's page takes the answer. */
function usePathsChanged() {
  const queryClient = useQueryClient()
  return async (path?: Path) => {
    if (path) queryClient.setQueryData(queryKeys.trainingPaths.detail(path.id), path)
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.trainingPaths.list }),
      queryClient.invalidateQueries({ queryKey: queryKeys.account.alerts }),
    ])
  }
}

/** One path per learner: the answer lists their cards, in the learners' order. */
export function useCreatePath() {
  const changed = usePathsChanged()
  return useMutation({
    mutationFn: (body: PathCreate) => data(api.POST('/backend/api/v2/training/path', { body })),
    meta: FORM,
    onSuccess: () => changed(),
  })
}

export function useUpdatePath() {
  const changed = usePathsChanged()
  return useMutation({
    mutationFn: ({ pathId, body }: { pathId: number; body: PathUpdate }) => data(api.POST('/backend/api/v2/training/path/{trainingPathId}', { ...byId(pathId), body })),
    // A stale version, or a field no longer editable (the learner accepted meanwhile), is explained by the form.
    meta: { handledStatuses: [400, 409, 422] },
    onSuccess: changed,
  })
}

/** Only a path never accepted; its page then leaves it (see useForgetPath). */
export function useDeletePath() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (pathId: number) => api.DELETE('/backend/api/v2/training/path/{trainingPathId}', byId(pathId)).then(() => undefined),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.trainingPaths.list }),
        queryClient.invalidateQueries({ queryKey: queryKeys.account.alerts }),
      ]),
  })
}

/** Forgets a deleted path once its page is left (the page would read it again, and find it gone). */
export function useForgetPath() {
  const queryClient = useQueryClient()
  return (pathId: number) => queryClient.removeQueries({ queryKey: queryKeys.trainingPaths.detail(pathId), exact: true })
}
