import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { api, data } from '../../api/client'
import { queryKeys } from '../../api/queryKeys'
import type { components } from '../../api/schema'
import type { ReferenceType } from '../../components/references/api'
import type { ListQuery } from '../../lib/querylang/types'

type Schemas = components['schemas']
export type Reference = Schemas['ReferenceOut']
export type ReferenceCard = Schemas['ReferenceCard']
export type ReferenceSave = Schemas['ReferenceSave']
export type { ReferenceType }

/** The query-language entity type of a reference list (one per type: each has its own saved filters). */
export const entityTypeOf = (type: ReferenceType) => `${type}_reference`

export const queryReferences = (type: ReferenceType) => (body: ListQuery) =>
  type === 'module'
    ? data(api.POST('/backend/api/v2/training/references/query/module', { body }))
    : data(api.POST('/backend/api/v2/training/references/query/path', { body }))

const at = (type: ReferenceType, code: string) => ({ params: { path: { type, code } } })

export const referenceQuery = (type: ReferenceType, code: string) =>
  queryOptions({
    queryKey: queryKeys.references.reference(type, code),
    queryFn: () => data(api.GET('/backend/api/v2/training/references/{type}/{code}', at(type, code))),
    // Its usage moves with modules and paths: each opening asks again.
    staleTime: 0,
    // The dialog says so itself (someone deleted it meanwhile).
    meta: { handledStatuses: [403, 404] },
  })

/** The fields of the reference dialog, whose server errors the dialog shows on them. */
export const REFERENCE_FIELDS = ['code', 'label', 'description', 'disabled']

/** A change of references; what shows them is read again, except the one a deletion removed (it would answer 404). */
function useReferenceChange<V, R>(mutationFn: (variables: V) => Promise<R>, meta: Record<string, unknown>, removed?: (variables: V) => string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn,
    meta,
    onSuccess: (_result, variables) => {
      const gone = removed?.(variables)
      return queryClient.invalidateQueries({
        queryKey: queryKeys.references.all,
        predicate: (query) => gone === undefined || query.queryKey[2] !== 'reference' || query.queryKey[3] !== gone,
      })
    },
  })
}

/** Creates (version 0) or saves a reference; 409 (staleVersion, alreadyExists) is explained by the dialog. */
export const useSaveReference = (type: ReferenceType) =>
  useReferenceChange(
    (body: ReferenceSave) => data(api.POST('/backend/api/v2/training/references/{type}', { params: { path: { type } }, body })),
    { formFields: REFERENCE_FIELDS, handledStatuses: [409] },
  )

/** 409 referenceInUse (something started using it meanwhile) is explained by the dialog. */
export const useDeleteReference = (type: ReferenceType) =>
  useReferenceChange(
    (code: string) => data(api.DELETE('/backend/api/v2/training/references/{type}/{code}', at(type, code))),
    { handledStatuses: [409] },
    (code) => code,
  )
