import { type QueryClient, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { api, data } from '../../api/client'
import type { ErrorHandlingMeta } from '../../api/errorReports'
import { queryKeys } from '../../api/queryKeys'
import type { components } from '../../api/schema'
import { dispositionName, saveFile } from '../../components/downloads/download'
import type { Job } from '../../components/jobs/api'

type Schemas = components['schemas']
export type ReportRequest = Schemas['ReportRequest']
export type ReportConfiguration = Schemas['ReportConfiguration']
export type ReportConfigurationSave = Schemas['ReportConfigurationSave']
export type ReportPaths = Schemas['ReportPaths']
export type ReportPathRow = ReportPaths['results'][number]
export type PathStatus = Schemas['PathStatus']
export type ModuleStatus = Schemas['ModuleStatus']
export type ModuleType = Schemas['ModuleType']
export type PathOptions = Schemas['PathOptions']
export type ModuleOptions = Schemas['ModuleOptions']

const CONFIGURATIONS = '/backend/api/v2/account/configuration/trainingPathReports'

/** The page shows refused parameters itself: errors on their fields, nothing to export or print. */
export const SHOWN_BY_PAGE: ErrorHandlingMeta = { handledStatuses: [400, 404, 422] }

/** The signed-in user's saved parameter sets, by name. */
export const configurationsQuery = queryOptions({
  queryKey: queryKeys.reports.configurations,
  queryFn: () => data(api.GET(CONFIGURATIONS)),
})

/** The parameters a report starts from when the user has no default set (spec 2 §9). */
export const defaultsQuery = queryOptions({
  queryKey: queryKeys.reports.defaults,
  queryFn: () => data(api.GET('/backend/api/v2/reports/trainingPaths/defaults')),
  // This year's period: read again on another day.
  staleTime: 60 * 60_000,
})

/** The names of the learners and groups some parameters choose (those that still exist). */
export const namesQuery = (request: ReportRequest) => {
  const { learnerIdList, groupIdList } = request.selectors
  return queryOptions({
    queryKey: queryKeys.reports.names(learnerIdList, groupIdList),
    queryFn: async () => {
      const [learners, groups] = await Promise.all([
        learnerIdList.length === 0 ? [] : data(api.POST('/backend/api/v2/user/getUserNames', { body: learnerIdList })),
        groupIdList.length === 0 ? [] : data(api.POST('/backend/api/v2/user/getGroupNames', { body: groupIdList })),
      ])
      return { learners, groups }
    },
  })
}

/**
 * What the page opens with (spec 2 §2): the user's default set if any, else the server's defaults, with
 * the names of its learners and groups. Read once per visit: saving a new default must not reload the
 * form being edited.
 */
export const openingQuery = (queryClient: QueryClient) =>
  queryOptions({
    queryKey: queryKeys.reports.opening,
    queryFn: async () => {
      const preferred = (await queryClient.fetchQuery(configurationsQuery)).find((configuration) => configuration.isDefault)
      const request = preferred ?? (await queryClient.fetchQuery(defaultsQuery))
      return { request, name: preferred?.name, names: await queryClient.fetchQuery(namesQuery(request)) }
    },
    staleTime: Infinity,
    gcTime: 0,
  })

function useConfigurationsChange<V>(mutationFn: (variables: V) => Promise<unknown>, meta?: ErrorHandlingMeta) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn,
    meta,
    // Refused or not, the list is read again: another window may have changed it.
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.reports.configurations }),
  })
}

/** Saves a parameter set under its name (an existing one is overwritten); the dialog shows what is refused. */
export const useSaveConfiguration = () => useConfigurationsChange((body: ReportConfigurationSave) => api.POST(CONFIGURATIONS, { body }), SHOWN_BY_PAGE)

export const useDeleteConfiguration = () =>
  useConfigurationsChange((name: string) => api.DELETE(`${CONFIGURATIONS}/{name}`, { params: { path: { name } } }))

/** The paths the parameters select, as the table shows them (at most 1,000; totalItems exact). */
export const fetchReportPaths = (body: ReportRequest) => data(api.POST('/backend/api/v2/reports/trainingPaths/paths', { body }))

const language = (value: string) => ({ 'Accept-Language': value })

/**
 * The report as an xlsx file, its headers in `lang`: saved as a download at once, or, over 1,000 paths,
 * the job that makes it (answered instead of the file).
 */
export async function exportExcel(body: ReportRequest, lang: string): Promise<Job | undefined> {
  const { data: blob, response } = await api.POST('/backend/api/v2/reports/trainingPaths/excel', { body, headers: language(lang), parseAs: 'blob' })
  if (response.status === 202) return JSON.parse(await (blob ?? new Blob([])).text()) as Job
  saveFile(blob ?? new Blob([]), dispositionName(response.headers.get('Content-Disposition'), 'training-paths.xlsx'))
  return undefined
}

/** Starts the zip of one PDF per learner, its texts in `lang`: the server answers at once with its job. */
export const startPdf = (body: ReportRequest, lang: string) =>
  data(api.POST('/backend/api/v2/reports/trainingPaths/pdf', { body, headers: language(lang) }))
