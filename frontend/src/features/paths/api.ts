import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import type { Client } from 'openapi-fetch'
import { api, data } from '../../api/client'
import type { ErrorHandlingMeta } from '../../api/errorReports'
import { queryKeys } from '../../api/queryKeys'
import type { components } from '../../api/schema'
import { LOAD_FAILURES_SHOWN_BY_PAGE } from '../../lib/loadFailures'
import type { ListQuery } from '../../lib/querylang/types'
import type { ModuleStatus, PathStatus } from './status'

type Schemas = components['schemas']
type ReferenceSummary = Schemas['ReferenceSummary']

// The shapes of backend/src/spot/training/paths/schemas.py, until schema.d.ts lists the path calls.
export interface Person {
  id: number
  name: string
}
export interface NamedGroup {
  id: number
  name: string
}
export interface AssignedModuleIn {
  moduleId: number | null
  referents: number[]
  startDate?: string | null
  stopDate?: string | null
}
export interface PathSave {
  title: string
  reference?: string | null
  startDate: string
  stopDate: string
  passThreshold: number
  visibleByPersons: number[]
  visibleByGroups: number[]
  assignedModules: AssignedModuleIn[]
}
export type PathCreate = PathSave & { learnerIds: number[] }
export type PathUpdate = PathSave & { version: number }
export interface Grading {
  grade: number
  comment: string
  isSuccess: boolean
  referent: Person | null
  validUntil: string | null
  date: string
}
export interface ModuleSummary {
  id: number
  name: string
  reference: ReferenceSummary | null
  goals: string
  moduleType: 'training' | 'qualification' | 'other'
  estimatedDuration: number
  passThreshold: number
  periodicity: number
}
export interface LearnerSignature {
  comment: string
  satisfaction: number
  date: string
}
export interface ModuleCan {
  start: boolean
  disable: boolean
  grade: boolean
  sign: boolean
  manageMediations: boolean
  openElements: boolean
}
interface ResultBase {
  index: number
  title: string
  description: string
  doneAt: string | null
}
export type Result =
  | (ResultBase & { type: 'url'; url: string })
  | (ResultBase & {
      type: 'spot'
      spotItemType: 'site' | 'cartography' | 'activity' | 'function' | 'subject'
      spotItemId: number
      readable: boolean
      context: Schemas['ContextEntry'][]
      subjects: number[]
    })
  | (ResultBase & {
      type: 'mediation'
      mediationIds: number[]
      mediations: { id: number; title: string | null; status: string | null; readable: boolean; signedByLearner: boolean }[]
    })
  | (ResultBase & {
      type: 'lms'
      lmsItemId: number | null
      lmsType: 'resource' | 'quiz' | null
      courseId: number | null
      found: boolean
      resources: { resourceId: number; doneAt: string | null }[]
      quizes: { quizId: number; result: number | null; attemptsIds: number[] }[]
    })
export interface AssignedModule {
  index: number
  module: ModuleSummary
  referents: Person[]
  startDate: string
  stopDate: string
  status: ModuleStatus
  disabled: boolean
  startedAt: string | null
  totalItems: number
  doneItems: number
  completion: number
  results: Result[]
  grading: Grading | null
  gradings: Grading[]
  signature: LearnerSignature | null
  signatures: Schemas['SignatureOut'][]
  can: ModuleCan
}
export interface PathCan {
  edit: boolean
  createFrom: boolean
  delete: boolean
  accept: boolean
  start: boolean
  validate: boolean
  sign: boolean
  cancel: boolean
  seeGrading: boolean
}
export type ClosingWarning = 'atLeastOneModuleNotPassed' | 'atLeastOneModuleNotSignedByLearner' | 'atLeastOneModuleNotSigned'
export interface HistoryEntry {
  at: string
  user: Person | null
  userName: string
  event: string
  moduleIndex: number | null
  grade: number | null
  comment: string | null
}
export interface Path {
  id: number
  title: string
  reference: ReferenceSummary | null
  learner: Person | null
  startDate: string
  stopDate: string
  status: PathStatus
  passThreshold: number
  visibleByPersons: Person[]
  visibleByGroups: NamedGroup[]
  creation: { userId: number | null; userName: string; date: string }
  totalEstimatedDuration: number
  totalSubModuleItems: number
  doneSubModuleItems: number
  totalAssignedModules: number
  completion: number
  averageGrade: number | null
  acceptanceDate: string | null
  validation: { validator: Person | null; comment: string; date: string } | null
  signature: LearnerSignature | null
  signatures: Schemas['SignatureOut'][]
  closingWarnings: ClosingWarning[]
  assignedModules: AssignedModule[]
  history: HistoryEntry[]
  can: PathCan
  version: number
}
export interface PathCard {
  id: number
  title: string
  reference: ReferenceSummary | null
  learner: Person | null
  creator: Person | null
  status: PathStatus
  startDate: string
  stopDate: string
  createdAt: string
  acceptanceDate: string | null
  validationDate: string | null
  signatureDate: string | null
  totalAssignedModules: number
  completion: number
}
export type ModuleFound = Schemas['ModuleFound']

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the path calls are not in schema.d.ts yet
const untyped = api as unknown as Client<any>
const PATH_API = '/backend/api/v2/training/path'

export const queryPaths = (body: ListQuery) => data<{ results: PathCard[]; totalItems: number }>(untyped.POST(`${PATH_API}/query`, { body }))

/** A path as its view and its edit form show it; every action answers it, and takes its place here. */
export const pathQueryOptions = (pathId: number) =>
  queryOptions({
    queryKey: queryKeys.trainingPaths.detail(pathId),
    queryFn: () => data<Path>(untyped.GET(`${PATH_API}/${pathId}`, {})),
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
export const usersOfGroups = async (groupIds: number[]): Promise<Person[]> =>
  (await data(api.POST('/backend/api/v2/user/byGroups', { body: groupIds }))).map((user) => ({ id: user.id, name: user.displayName }))

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
    mutationFn: (body: PathCreate) => data<PathCard[]>(untyped.POST(PATH_API, { body })),
    meta: FORM,
    onSuccess: () => changed(),
  })
}

export function useUpdatePath() {
  const changed = usePathsChanged()
  return useMutation({
    mutationFn: ({ pathId, body }: { pathId: number; body: PathUpdate }) => data<Path>(untyped.POST(`${PATH_API}/${pathId}`, { body })),
    // A stale version, or a field no longer editable (the learner accepted meanwhile), is explained by the form.
    meta: { handledStatuses: [400, 409, 422] },
    onSuccess: changed,
  })
}

/** Only a path never accepted; its page then leaves it (see useForgetPath). */
export function useDeletePath() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (pathId: number) => untyped.DELETE(`${PATH_API}/${pathId}`, {}).then(() => undefined),
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
