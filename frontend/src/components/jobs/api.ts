import { queryOptions } from '@tanstack/react-query'
import { api, data } from '../../api/client'
import { queryKeys } from '../../api/queryKeys'
import type { components } from '../../api/schema'
import { download } from '../downloads/download'

/**
 * Jobs (docs/operations.md, "Jobs"): long work the server runs outside the request (a zip of PDFs) for the
 * signed-in user, its progress read every half second while it runs, its result downloaded once ready.
 * Shared by the pages that start one (the path report) and the user's jobs page.
 */

export type Job = components['schemas']['JobOut']

/** How often a job that is queued or running is read again. */
export const POLL_MS = 500

export const isRunning = (job: Job | undefined) => job?.status === 'queued' || job?.status === 'running'

/** One job of the signed-in user, read again every half second until it ends. */
export const jobQuery = (jobId: number) =>
  queryOptions({
    queryKey: queryKeys.jobs.one(jobId),
    queryFn: () => data(api.GET('/backend/api/v2/jobs/{jobId}', { params: { path: { jobId } } })),
    refetchInterval: (query) => (query.state.data === undefined || isRunning(query.state.data) ? POLL_MS : false),
  })

/** The signed-in user's jobs, newest first, read again every half second while one of them runs. */
export const jobsQuery = queryOptions({
  queryKey: queryKeys.jobs.all,
  queryFn: () => data(api.GET('/backend/api/v2/jobs')),
  refetchInterval: (query) => (query.state.data?.results.some(isRunning) ? POLL_MS : false),
})

/** Downloads a job's result under its name. */
export const downloadResult = (job: Job) =>
  download(api.GET('/backend/api/v2/jobs/{jobId}/result', { params: { path: { jobId: job.id } }, parseAs: 'blob' }), job.downloadName ?? 'result')

/** The share of the work done, 0 to 100, or undefined while the job does not know its total. */
export const percentDone = (job: Job) => (job.total > 0 ? (100 * job.done) / job.total : undefined)
