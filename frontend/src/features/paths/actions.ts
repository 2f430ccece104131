import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, data } from '../../api/client'
import type { ErrorHandlingMeta } from '../../api/errorReports'
import { isReauthenticationRequired } from '../../api/errors'
import { queryKeys } from '../../api/queryKeys'
import type { components } from '../../api/schema'
import type { ListPage } from '../../lib/querylang/types'
import { escapeValue } from '../../lib/querylang/printer'
import type { AssignedModule, Path } from './api'

/** An attached mediation of a mediation element, as the reader may see it. */
export type AttachedMediation = Extract<AssignedModule['results'][number], { type: 'mediation' }>['mediations'][number]
/** The learner's sign-off of a module or of the path: what they wrote and how satisfied they were. */
export interface SignOff {
  comment: string
  satisfaction: number
}
export interface GradeInput {
  grade: number | null
  comment: string
}

const onPath = (pathId: number) => ({ params: { path: { trainingPathId: pathId } } })
const onModule = (pathId: number, moduleIndex: number) => ({ params: { path: { trainingPathId: pathId, moduleIndex } } })
const onResult = (pathId: number, moduleIndex: number, resultIndex: number) => ({ params: { path: { trainingPathId: pathId, moduleIndex, resultIndex } } })

/** The path's actions without a body, each a plain call answered by the path as it now stands. */
export const pathCalls = {
  /** Recompute the progress (elements done, modules and path finished): the view's reload button. */
  reload: (pathId: number) => data(api.POST('/backend/api/v2/training/path/{trainingPathId}/update', onPath(pathId))),
  accept: (pathId: number) => data(api.POST('/backend/api/v2/training/path/{trainingPathId}/accept', onPath(pathId))),
  start: (pathId: number) => data(api.POST('/backend/api/v2/training/path/{trainingPathId}/start', onPath(pathId))),
  cancel: (pathId: number) => data(api.POST('/backend/api/v2/training/path/{trainingPathId}/cancel', onPath(pathId))),
}

export type PathCall = keyof typeof pathCalls

/** The module's actions without a body. */
export const moduleCalls = {
  startNow: (pathId: number, moduleIndex: number) =>
    data(api.POST('/backend/api/v2/training/path/{trainingPathId}/{moduleIndex}/startNow', onModule(pathId, moduleIndex))),
  disable: (pathId: number, moduleIndex: number) =>
    data(api.POST('/backend/api/v2/training/path/{trainingPathId}/{moduleIndex}/disable', onModule(pathId, moduleIndex))),
}

export type ModuleCall = keyof typeof moduleCalls

/** Closing: the validator's signature (meaning approval); the server may first ask for the password again. */
export const validatePath = (pathId: number, comment: string) =>
  data(api.POST('/backend/api/v2/training/path/{trainingPathId}/validate', { ...onPath(pathId), body: { comment } }))

/** The learner's signature of the closed path (meaning acknowledgement). */
export const signPath = (pathId: number, body: SignOff) => data(api.POST('/backend/api/v2/training/path/{trainingPathId}/sign', { ...onPath(pathId), body }))

/** The learner's signature of a graded module (meaning acknowledgement). */
export const signModule = (pathId: number, moduleIndex: number, body: SignOff) =>
  data(api.POST('/backend/api/v2/training/path/{trainingPathId}/{moduleIndex}/sign', { ...onModule(pathId, moduleIndex), body }))

/** Grades a module, or changes its grade; `version` is the path's as read (409 staleVersion when another grade came first). */
export const gradeModule = (pathId: number, moduleIndex: number, body: GradeInput & { version: number }) =>
  data(api.POST('/backend/api/v2/training/path/{trainingPathId}/{moduleIndex}/grade', { ...onModule(pathId, moduleIndex), body }))

/** The learner opened a url or spot element from the path: the first opening makes it done. */
export const recordOpen = (pathId: number, moduleIndex: number, resultIndex: number) =>
  data(api.POST('/backend/api/v2/training/path/{trainingPathId}/{moduleIndex}/{resultIndex}/url', onResult(pathId, moduleIndex, resultIndex)))

export const attachMediation = (pathId: number, moduleIndex: number, resultIndex: number, mediationId: number) =>
  data(
    api.POST('/backend/api/v2/training/path/{trainingPathId}/{moduleIndex}/{resultIndex}/mediation/attach/{mediationId}', {
      params: { path: { trainingPathId: pathId, moduleIndex, resultIndex, mediationId } },
    }),
  )

export const detachMediation = (pathId: number, moduleIndex: number, resultIndex: number, mediationId: number) =>
  data(
    api.POST('/backend/api/v2/training/path/{trainingPathId}/{moduleIndex}/{resultIndex}/mediation/detach/{mediationId}', {
      params: { path: { trainingPathId: pathId, moduleIndex, resultIndex, mediationId } },
    }),
  )

export type MediationFound = components['schemas']['MediationCard']

/** Mediations readable by the user, not canceled, whose title contains `text`, latest changed first (the attach picker). */
export function searchMediations(text: string): Promise<ListPage<MediationFound>> {
  const words = text.trim()
  // A canceled mediation is never validated: attached, its element could never be done (the server refuses it).
  const live = 'status noneOf canceled'
  const filter = words === '' ? live : `${live} & title contains ${escapeValue(words)}`
  return data(api.POST('/backend/api/v2/mediation/query', { body: { filter, sort: '-last_update', page: 1, pageSize: 20 } }))
}

/**
 * What the view does with the path an action answered, and after a refused one. The answer replaces
 * the path in the cache (no second read); the lists and the bell that show it are read again. A
 * refusal (spec 2 §8: accept, start, grade, sign, validate, cancel…) goes to the global error display,
 * and the path is read again, since what the user saw was no longer so.
 */
export function usePathChanged(pathId: number) {
  const queryClient = useQueryClient()
  const detail = queryKeys.trainingPaths.detail(pathId)
  return {
    changed: (path: Path) => {
      queryClient.setQueryData(detail, path)
      void queryClient.invalidateQueries({ queryKey: queryKeys.trainingPaths.list })
      void queryClient.invalidateQueries({ queryKey: queryKeys.account.alerts })
    },
    reload: () => queryClient.invalidateQueries({ queryKey: detail, exact: true }),
  }
}

/**
 * One action on the path as a mutation: `call` runs it, answered by the path. A failure is shown by the
 * global error display (or by the caller for the statuses in `meta`) and the path is read again.
 */
export function usePathAction<V>(pathId: number, call: (variables: V) => Promise<Path>, meta?: ErrorHandlingMeta) {
  const { changed, reload } = usePathChanged(pathId)
  return useMutation({
    mutationFn: call,
    meta,
    onSuccess: changed,
    onError: () => void reload(),
  })
}

/**
 * A signing call for useSignWithReauthentication: a refusal other than the password request reads the
 * path again (the hook leaves the message to the global error display).
 */
export function useSigningCall<T>(pathId: number, call: () => Promise<T>): () => Promise<T> {
  const { reload } = usePathChanged(pathId)
  return async () => {
    try {
      return await call()
    } catch (error) {
      if (!isReauthenticationRequired(error)) void reload()
      throw error
    }
  }
}
