import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { api, data } from '../../api/client'
import { apiErrorFrom } from '../../api/errors'
import { queryKeys } from '../../api/queryKeys'
import type { components, paths } from '../../api/schema'
import { expireSession, getToken } from '../../lib/session'

type Schemas = components['schemas']
export type MyAttempt = Schemas['MyAttempt']
/** The answer to an upload: the course, whether it is new, and how many elements it holds. */
export type ImportResult = paths['/backend/api/v2/lms/courses']['post']['responses'][200]['content']['application/json']

/** The largest course package the server takes (DESIGN §5). */
export const MAX_PACKAGE_BYTES = 30_000_000

/** The signed-in learner's quiz attempts, read again whenever the tab comes back to the front: a quiz is answered in another tab. */
export const myAttemptsQuery = queryOptions({
  queryKey: queryKeys.lms.myAttempts,
  queryFn: () => data(api.GET('/backend/api/v2/lms/attempts/mine')),
  refetchOnWindowFocus: 'always',
})

/**
 * Sends a course package as the raw body. Through XMLHttpRequest, the one browser call that reports
 * the upload's progress (0 to 1); the session header and the failures are handled as api/client.ts does.
 */
export function uploadCoursePackage(file: File, onProgress: (done: number) => void) {
  return new Promise<ImportResult>((resolve, reject) => {
    const request = new XMLHttpRequest()
    request.open('POST', '/backend/api/v2/lms/courses')
    const token = getToken()
    if (token) request.setRequestHeader('x-access-token', token)
    request.setRequestHeader('Content-Type', 'application/zip')
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total)
    }
    request.onload = () => {
      if (request.status >= 200 && request.status < 300) return resolve(JSON.parse(request.responseText) as ImportResult)
      if (request.status === 401 && token && token === getToken()) expireSession()
      const answer = new Response(request.responseText || null, { status: request.status, statusText: request.statusText })
      void apiErrorFrom(answer).then(reject)
    }
    request.onerror = () => reject(new Error('uploadFailed'))
    request.send(file)
  })
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

/** The upload dialog shows the refusals itself (a bad package, a file too big). */
export const useUploadCourse = () =>
  useCoursesChange(
    ({ file, onProgress }: { file: File; onProgress: (done: number) => void }) => uploadCoursePackage(file, onProgress),
    { handledStatuses: [400, 413, 415, 422] },
  )

export const useRemoveCourse = () =>
  useCoursesChange((courseId: number) => data(api.DELETE('/backend/api/v2/lms/courses/{courseId}', { params: { path: { courseId } } })))
