import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { api, data } from '../../api/client'
import { queryKeys } from '../../api/queryKeys'
import type { components, paths } from '../../api/schema'
import { withProgress } from '../../api/upload'

type Schemas = components['schemas']
export type MyAttempt = Schemas['MyAttempt']
/** The job that imports an uploaded package (docs/operations.md, "Jobs"): the server answers it at once. */
export type ImportJob = paths['/backend/api/v2/lms/courses']['post']['responses'][202]['content']['application/json']

/** What an import did, its job's summary once it succeeded (lms.jobs): the course, whether it is new, and how many units it holds. */
export interface ImportResult {
  id: number
  title: string
  created: boolean
  items: number
}

/** The signed-in learner's quiz attempts, read again whenever the tab comes back to the front: a quiz is answered in another tab. */
export const myAttemptsQuery = queryOptions({
  queryKey: queryKeys.lms.myAttempts,
  queryFn: () => data(api.GET('/backend/api/v2/lms/attempts/mine')),
  refetchOnWindowFocus: 'always',
})

/** Sends a course package (a zip, or a cmi5.xml alone) as the raw body, reporting the upload's progress (0 to 1): the job that imports it, once the server checked it. */
export function uploadCoursePackage(file: File, onProgress: (done: number) => void): Promise<ImportJob> {
  const type = file.name.toLowerCase().endsWith('.xml') ? 'application/xml' : 'application/zip'
  return data(api.POST('/backend/api/v2/lms/courses', { headers: { 'Content-Type': type }, ...withProgress(file, onProgress) }))
}

/** What changes the catalogue reads the courses again: the list, the trees, the names modules show. */
function useCoursesChange<V, R>(mutationFn: (variables: V) => Promise<R>, meta?: { handledStatuses: number[] }) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn,
    meta,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.courses.all }),
  })
}

/** The catalogue read again, once a course's import ended. */
export function useCoursesChanged() {
  const queryClient = useQueryClient()
  return () => queryClient.invalidateQueries({ queryKey: queryKeys.courses.all })
}

/** The upload dialog shows the refusals itself (a bad package, a file too big). */
export const useUploadCourse = () =>
  useCoursesChange(
    ({ file, onProgress }: { file: File; onProgress: (done: number) => void }) => uploadCoursePackage(file, onProgress),
    { handledStatuses: [400, 413, 415, 422] },
  )

export const useRemoveCourse = () =>
  useCoursesChange((courseId: number) => data(api.DELETE('/backend/api/v2/lms/courses/{courseId}', { params: { path: { courseId } } })))
