import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { api, data } from '../../api/client'
import { queryKeys } from '../../api/queryKeys'
import type { components } from '../../api/schema'
import { withProgress } from '../../api/upload'
import type { ResourceType } from './rules'

type Schemas = components['schemas']
export type Resource = Schemas['ResourceOut']
export type Gallery = Schemas['ResourceGallery']
export type ResourceUpdate = Schemas['ResourceUpdate']

/** The form fields the server may name in its answers: shown on their fields, not in the error dialog. */
export const RESOURCE_FIELDS = ['resourceType', 'name', 'link', 'comment', 'file']
const FORM = { formFields: RESOURCE_FIELDS }

export interface Parent {
  parentType: string
  parentId: number
}

const path = ({ parentType, parentId }: Parent) => ({ params: { path: { parentType, parentId } } })

export const galleryQuery = (parent: Parent) =>
  queryOptions({
    queryKey: queryKeys.resources.gallery(parent.parentType, parent.parentId),
    queryFn: () => data(api.GET('/backend/api/v2/resource/{parentType}/{parentId}', path(parent))),
    // The page around the gallery says when its item is hidden or gone.
    meta: { handledStatuses: [403, 404] },
  })

/**
 * A stored file or thumbnail as an object URL: the server reads the session from a header only, so
 * an <img> or <iframe> cannot fetch it directly. Its address names the stored file, which never
 * changes: it is read once.
 */
export const storedFileQuery = (resource: Resource, kind: 'file' | 'thumbnail') => {
  const url = (kind === 'file' ? resource.fileUrl : resource.thumbnailUrl) ?? ''
  return queryOptions({
    queryKey: queryKeys.resources.file(url),
    queryFn: async () => {
      const v = new URL(url, window.location.origin).searchParams.get('v') ?? undefined
      const params = { path: { parentType: resource.parentType, parentId: resource.parentId, resourceId: resource.id }, query: { v } }
      const call =
        kind === 'file'
          ? api.GET('/backend/api/v2/resource/{parentType}/{parentId}/{resourceId}/file', { params, parseAs: 'blob' })
          : api.GET('/backend/api/v2/resource/{parentType}/{parentId}/{resourceId}/thumbnail', { params, parseAs: 'blob' })
      return URL.createObjectURL(await data<Blob>(call as Promise<{ data?: Blob }>))
    },
    enabled: url !== '',
    staleTime: Infinity,
  })
}

export interface NewResource {
  resourceType: ResourceType
  name: string
  link: string
  comment: string
}

/**
 * Sends a new resource: the file as the raw body, the metadata URI-encoded in headers (spec 1 §7),
 * reporting the upload's progress (0 to 1).
 */
export function uploadResource(parent: Parent, resource: NewResource, file: File | null, onProgress: (done: number) => void): Promise<Resource> {
  return data(
    api.POST('/backend/api/v2/resource/{parentType}/{parentId}', {
      params: {
        ...path(parent).params,
        header: {
          resourceType: resource.resourceType,
          name: encodeURIComponent(resource.name),
          link: encodeURIComponent(resource.link),
          comment: encodeURIComponent(resource.comment),
        },
      },
      headers: { 'Content-Type': 'application/octet-stream' },
      ...withProgress(file, onProgress),
    }),
  )
}

function useGalleryChange<V, R>(parent: Parent, mutationFn: (variables: V) => Promise<R>, meta?: { formFields: string[] }) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn,
    meta,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.resources.gallery(parent.parentType, parent.parentId) }),
  })
}

export const useCreateResource = (parent: Parent) =>
  useGalleryChange(
    parent,
    ({ resource, file, onProgress }: { resource: NewResource; file: File | null; onProgress: (done: number) => void }) =>
      uploadResource(parent, resource, file, onProgress),
    FORM,
  )

export const useUpdateResource = (parent: Parent) =>
  useGalleryChange(
    parent,
    ({ resourceId, body }: { resourceId: number; body: ResourceUpdate }) =>
      data(
        api.POST('/backend/api/v2/resource/{parentType}/{parentId}/{resourceId}/update', {
          params: { path: { ...path(parent).params.path, resourceId } },
          body,
        }),
      ),
    FORM,
  )

export const useDeleteResource = (parent: Parent) =>
  useGalleryChange(parent, (resourceId: number) =>
    data(api.DELETE('/backend/api/v2/resource/{parentType}/{parentId}/{resourceId}', { params: { path: { ...path(parent).params.path, resourceId } } })),
  )

/** Saves a new order; the gallery shows it at once and goes back if the server refuses it. */
export function useReorderResources(parent: Parent) {
  const queryClient = useQueryClient()
  const queryKey = queryKeys.resources.gallery(parent.parentType, parent.parentId)
  return useMutation({
    mutationFn: (ids: number[]) => data(api.POST('/backend/api/v2/resource/{parentType}/{parentId}/reorder', { ...path(parent), body: ids })),
    onMutate: async (ids) => {
      await queryClient.cancelQueries({ queryKey })
      const before = queryClient.getQueryData<Gallery>(queryKey)
      if (before) {
        const byId = new Map(before.resources.map((resource) => [resource.id, resource]))
        const resources = ids.map((id) => byId.get(id)).filter((resource) => resource !== undefined)
        queryClient.setQueryData<Gallery>(queryKey, { ...before, resources })
      }
      return { before }
    },
    onError: (_error, _ids, context) => {
      if (context?.before) queryClient.setQueryData(queryKey, context.before)
    },
    onSuccess: (gallery) => queryClient.setQueryData(queryKey, gallery),
  })
}
