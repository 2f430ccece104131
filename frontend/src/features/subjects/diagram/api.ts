import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { api, data } from '../../../api/client'
import { queryKeys } from '../../../api/queryKeys'
import { BAD_FILE_FORMAT, FILE_TOO_BIG, MAX_FILE_BYTES } from '../../../components/gallery/rules'
import type { Diagram } from '../mindmap/types'

/** The media types a diagram may have (an image or a PDF); the server judges the bytes too. */
export const DIAGRAM_MEDIA_TYPES: readonly string[] = ['image/jpeg', 'image/png', 'application/pdf']

/** The message key of a file that cannot be a diagram (the resources' rules), undefined when it may be sent. */
export function diagramFileError(file: File): string | undefined {
  if (!DIAGRAM_MEDIA_TYPES.includes(file.type)) return BAD_FILE_FORMAT
  if (file.size > MAX_FILE_BYTES) return FILE_TOO_BIG
  return undefined
}

/**
 * The stored diagram as an object URL: the server reads the session from a header only, so an
 * <img> or <object> cannot fetch it directly. Its address names the stored file (v = its digest): it is read once.
 */
export const diagramFileQuery = (subjectId: number, diagram: Diagram) =>
  queryOptions({
    queryKey: [...queryKeys.subjects.subject(subjectId), 'diagram', diagram.url] as const,
    queryFn: async () => {
      const v = new URL(diagram.url, window.location.origin).searchParams.get('v') ?? undefined
      const call = api.GET('/backend/api/v2/subject/{subjectId}/diagram/file', { params: { path: { subjectId }, query: { v } }, parseAs: 'blob' })
      return URL.createObjectURL(await data<Blob>(call as Promise<{ data?: Blob }>))
    },
    staleTime: Infinity,
  })

/** Upload or replace, and remove; the subject (hasDiagram), its mind map (diagram) and the lists are read again. */
function useDiagramChange<V>(mutationFn: (variables: V) => Promise<unknown>) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn,
    // A refused file (badFileFormat, fileTooBig, fileUploadError) is shown beside the upload button.
    meta: { formFields: ['file'] },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.subjects.all }),
  })
}

export const useUploadDiagram = (subjectId: number) =>
  useDiagramChange(
    (file: File): Promise<Diagram> =>
      // The raw file is the body, its name (URI-encoded) a header, as for the resources.
      data(
        api.POST('/backend/api/v2/subject/{subjectId}/diagram', {
          params: { path: { subjectId }, header: { name: encodeURIComponent(file.name) } },
          headers: { 'Content-Type': 'application/octet-stream' },
          body: file as unknown as string,
          bodySerializer: (body) => body,
        }),
      ),
  )

export const useRemoveDiagram = (subjectId: number) =>
  useDiagramChange(() => data(api.DELETE('/backend/api/v2/subject/{subjectId}/diagram', { params: { path: { subjectId } } })))
