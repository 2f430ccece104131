import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { api, data } from '../../../api/client'
import type { ErrorHandlingMeta } from '../../../api/errorReports'
import { isApiError } from '../../../api/errors'
import { queryKeys } from '../../../api/queryKeys'
import { LOAD_FAILURES_SHOWN_BY_PAGE } from '../../../lib/loadFailures'
import type { MindMap, MindMapChange, NodeStatus } from './types'

export const mindMapQuery = (subjectId: number) =>
  queryOptions({
    queryKey: queryKeys.subjects.mindMap(subjectId),
    queryFn: (): Promise<MindMap> => data(api.GET('/backend/api/v2/subject/{subjectId}/mindmap', { params: { path: { subjectId } } })),
    meta: LOAD_FAILURES_SHOWN_BY_PAGE,
    // Reading the tree records a visit: every opening asks the server again.
    staleTime: 0,
  })

/** The fields of the node form, whose server errors the form shows by its fields. */
export const NODE_FIELDS = ['name', 'text']
/** A stale version (someone changed the tree meanwhile) is explained by the page, which reads the tree again. */
const STALE_HANDLED: ErrorHandlingMeta = { handledStatuses: [409] }

export const isStaleVersion = (error: unknown) => isApiError(error, 409)

/**
 * A change of the tree, sent with the version the client holds. The answer's version is kept at once
 * (a following change goes through without waiting), then the tree and what shows the subject are
 * read again; a 409 reads the tree again too, so that the next attempt carries the new version.
 */
function useTreeChange<V>(subjectId: number, send: (version: number, variables: V) => Promise<MindMapChange>, meta: ErrorHandlingMeta) {
  const queryClient = useQueryClient()
  const { queryKey } = mindMapQuery(subjectId)
  return useMutation({
    mutationFn: (variables: V) => send(queryClient.getQueryData(queryKey)?.version ?? 0, variables),
    meta,
    onSuccess: async (change) => {
      queryClient.setQueryData(queryKey, (tree) => tree && { ...tree, version: change.version })
      await Promise.all([queryKeys.subjects.all, queryKeys.mapping.all].map((key) => queryClient.invalidateQueries({ queryKey: key })))
    },
    onError: (error) => {
      if (isStaleVersion(error)) void queryClient.invalidateQueries({ queryKey })
    },
  })
}

export interface NodeContent {
  name: string
  text: string
}

export const useAddNode = (subjectId: number) =>
  useTreeChange(
    subjectId,
    (version, { parentCode, position, ...content }: NodeContent & { parentCode: number; position?: number }) =>
      data(
        api.POST('/backend/api/v2/subject/{subjectId}/mindmap/nodes', {
          params: { path: { subjectId } },
          body: { version, parentCode, position: position ?? null, ...content },
        }),
      ),
    { ...STALE_HANDLED, formFields: NODE_FIELDS },
  )

export const useEditNode = (subjectId: number) =>
  useTreeChange(
    subjectId,
    (version, { code, ...content }: NodeContent & { code: number }) =>
      data(api.POST('/backend/api/v2/subject/{subjectId}/mindmap/nodes/{code}', { params: { path: { subjectId, code } }, body: { version, ...content } })),
    { ...STALE_HANDLED, formFields: NODE_FIELDS },
  )

export const useMoveNode = (subjectId: number) =>
  useTreeChange(
    subjectId,
    (version, { code, parentCode, position }: { code: number; parentCode: number; position: number }) =>
      data(
        api.POST('/backend/api/v2/subject/{subjectId}/mindmap/nodes/{code}/move', {
          params: { path: { subjectId, code } },
          body: { version, parentCode, position },
        }),
      ),
    STALE_HANDLED,
  )

export const useDeleteNode = (subjectId: number) =>
  useTreeChange(
    subjectId,
    (version, code: number) =>
      data(api.DELETE('/backend/api/v2/subject/{subjectId}/mindmap/nodes/{code}', { params: { path: { subjectId, code }, query: { version } } })),
    STALE_HANDLED,
  )

export const useSetNodeStatus = (subjectId: number) =>
  useTreeChange(
    subjectId,
    (version, { code, status }: { code: number; status: NodeStatus }) =>
      data(api.POST('/backend/api/v2/subject/{subjectId}/mindmap/nodes/{code}/status', { params: { path: { subjectId, code } }, body: { version, status } })),
    STALE_HANDLED,
  )
