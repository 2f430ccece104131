import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { api, data } from '../../api/client'
import type { ErrorHandlingMeta } from '../../api/errorReports'
import { imageDataUrl } from '../../api/images'
import { isSubjectKey, queryKeys } from '../../api/queryKeys'
import type { components } from '../../api/schema'
import { LOAD_FAILURES_SHOWN_BY_PAGE } from '../../lib/loadFailures'
import type { ListQuery } from '../../lib/querylang/types'

type Schemas = components['schemas']
export type Subject = Schemas['SubjectOut']
export type SubjectSummary = Schemas['SubjectSummary']
export type SubjectCard = Schemas['SubjectCard']
export type SubjectSave = Schemas['SubjectSave']
export type SubjectType = Schemas['SubjectSave']['type']
export type Ratings = Schemas['Ratings']
export type LifetimeEvent = Schemas['LifetimeEvent']
export type NodeStatus = NonNullable<Schemas['SubjectSummary']['mainNodeStatus']>
export type CriticityLevel = NonNullable<Schemas['SubjectSummary']['criticityLevel']>
export type FunctionView = Schemas['FunctionView']
export type Visit = Schemas['Visit']

export const SUBJECT_TYPES: SubjectType[] = ['risk', 'quality']

export const subjectQuery = (subjectId: number) =>
  queryOptions({
    queryKey: queryKeys.subjects.subject(subjectId),
    queryFn: () => data(api.GET('/backend/api/v2/subject/{subjectId}', { params: { path: { subjectId } } })),
    meta: LOAD_FAILURES_SHOWN_BY_PAGE,
    // Reading a subject records a visit: every opening asks the server again.
    staleTime: 0,
  })

/** The level of every frequency × gravity rating, as the server bands them. */
export const criticityTableQuery = queryOptions({
  queryKey: queryKeys.subjects.criticity,
  queryFn: () => data(api.GET('/backend/api/v2/subject/criticity')),
  staleTime: Infinity,
})

export const subjectPictureQuery = (subjectId: number) =>
  queryOptions({
    queryKey: queryKeys.subjects.picture(subjectId),
    queryFn: () => imageDataUrl(api.GET('/backend/api/v2/subject/{subjectId}/picture', { params: { path: { subjectId } }, parseAs: 'blob' })),
    staleTime: Infinity,
  })

export const functionViewQuery = (functionId: number) =>
  queryOptions({
    queryKey: queryKeys.subjects.functionView(functionId),
    queryFn: () => data(api.GET('/backend/api/v2/function/{functionId}', { params: { path: { functionId } } })),
    meta: LOAD_FAILURES_SHOWN_BY_PAGE,
  })

/** When the user last opened each subject; lists need it before showing their unread marks. */
export const visitsQuery = queryOptions({
  queryKey: queryKeys.subjects.visits,
  queryFn: () => data(api.GET('/backend/api/v2/account/visits')),
})

export function querySubjects(body: ListQuery) {
  return data(api.POST('/backend/api/v2/subject/query', { body }))
}

/** After any change the subject, lists, counts and visits are read again. */
function useSubjectChange<V, R>(mutationFn: (variables: V) => Promise<R>, meta?: ErrorHandlingMeta) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn,
    meta,
    onSuccess: () =>
      Promise.all([queryKeys.subjects.all, queryKeys.mapping.all].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  })
}

export const SUBJECT_FIELDS = ['name', 'type', 'cartographyId', 'functionId', 'activityId']
const FORM = { formFields: SUBJECT_FIELDS }

export const useCreateSubject = () =>
  useSubjectChange((body: SubjectSave) => data(api.POST('/backend/api/v2/subject', { body })), FORM)

export const useUpdateSubject = () =>
  useSubjectChange(
    ({ subjectId, body }: { subjectId: number; body: SubjectSave & { version: number } }) =>
      data(api.POST('/backend/api/v2/subject/{subjectId}', { params: { path: { subjectId } }, body })),
    // A stale version (someone saved meanwhile) is explained by the form itself.
    { ...FORM, handledStatuses: [409] },
  )

/** CreateFromSubject: a copy of the source (ratings, mind map) under the form's name and links. */
export const useCreateFromSubject = () =>
  useSubjectChange(
    ({ subjectId, body }: { subjectId: number; body: SubjectSave }) =>
      data(api.POST('/backend/api/v2/subject/{subjectId}/duplicate', { params: { path: { subjectId } }, body })),
    FORM,
  )

export function useDeleteSubject() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (subjectId: number) => data(api.DELETE('/backend/api/v2/subject/{subjectId}', { params: { path: { subjectId } } })),
    // The deleted subject itself is not read again: its page is being left.
    onSuccess: (_answer, subjectId) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.subjects.all, predicate: (query) => !isSubjectKey(query.queryKey, subjectId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.mapping.all }),
      ]),
  })
}

export type Mark =
  | { kind: 'follow' | 'resolve' }
  | { kind: 'rate'; ratings: Ratings }
  | { kind: 'standardize'; comment: string }

function sendMark(subjectId: number, mark: Mark) {
  const path = { params: { path: { subjectId } } }
  switch (mark.kind) {
    case 'follow':
      return data(api.POST('/backend/api/v2/subject/{subjectId}/follow', path))
    case 'resolve':
      return data(api.POST('/backend/api/v2/subject/{subjectId}/resolve', path))
    case 'rate':
      return data(api.POST('/backend/api/v2/subject/{subjectId}/rate', { ...path, body: mark.ratings }))
    case 'standardize':
      return data(api.POST('/backend/api/v2/subject/{subjectId}/standardize', { ...path, body: { comment: mark.comment } }))
  }
}

/** Follow, resolve, rate or standardize; the answer is the subject as it now stands. */
export function useMarkSubject(subjectId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (mark: Mark) => sendMark(subjectId, mark),
    onSuccess: async (subject) => {
      const { queryKey } = subjectQuery(subjectId)
      queryClient.setQueryData(queryKey, subject)
      // The answer is the subject as it now stands: only what shows it elsewhere is read again.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.subjects.all, predicate: (query) => !isSubjectKey(query.queryKey, subjectId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.mapping.all }),
      ])
    },
  })
}

/** The subject view a legacy mind-map or diagram address names (V1Redirection without the legacy application). */
export const legacyTargetQuery = (to: string) =>
  queryOptions({
    queryKey: [...queryKeys.subjects.all, 'legacyTarget', to] as const,
    queryFn: () => data(api.GET('/backend/api/v2/legacy/target', { params: { query: { to } } })),
    meta: LOAD_FAILURES_SHOWN_BY_PAGE,
  })

/** The fields of the prevention measures' form whose server errors show under them. */
export const MEASURES_FIELDS = ['preventionMeasures']

/**
 * Saves the subject's prevention measures (the DUERP prints them); 409 staleVersion and the field's 422 are
 * explained by the dialog, which keeps what was typed.
 */
export function useSavePreventionMeasures(subjectId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: { preventionMeasures: string; version: number }) =>
      data(api.POST('/backend/api/v2/subject/{subjectId}/preventionMeasures', { params: { path: { subjectId } }, body })),
    meta: { formFields: MEASURES_FIELDS, handledStatuses: [409] },
    onSuccess: (subject) => queryClient.setQueryData(subjectQuery(subjectId).queryKey, subject),
  })
}
