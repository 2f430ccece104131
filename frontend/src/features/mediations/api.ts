import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { api, data } from '../../api/client'
import type { ErrorHandlingMeta } from '../../api/errorReports'
import { queryKeys } from '../../api/queryKeys'
import type { components } from '../../api/schema'
import { LOAD_FAILURES_SHOWN_BY_PAGE } from '../../lib/loadFailures'
import type { ListQuery } from '../../lib/querylang/types'
import type { MediationStatus } from './status'

type Schemas = components['schemas']
export type Mediation = Schemas['MediationOut']
export type MediationCard = Schemas['MediationCard']
export type ActionableMediation = Schemas['ActionableMediation']
export type MediationSave = Schemas['MediationSave']
export type MediationCan = Schemas['MediationCan']
export type Person = Schemas['Person']
export type TrackedAction = Schemas['TrackedAction']
export type TrackingPeriod = Schemas['Period']
export type ReportItemIn = Schemas['ReportItemIn']

const byId = (mediationId: number) => ({ params: { path: { mediationId } } })

export const queryMediations = (body: ListQuery) => data(api.POST('/backend/api/v2/mediation/query', { body }))

export const mediationQuery = (mediationId: number) =>
  queryOptions({
    queryKey: queryKeys.mediations.mediation(mediationId),
    queryFn: () => data(api.GET('/backend/api/v2/mediation/{mediationId}', byId(mediationId))),
    meta: LOAD_FAILURES_SHOWN_BY_PAGE,
    // Reading a mediation is recorded in its history: every opening asks the server again.
    staleTime: 0,
  })

/** The mediations awaiting something from the user: to start, report, validate or sign. */
export const actionableMediationsQuery = queryOptions({
  queryKey: queryKeys.mediations.actionable,
  queryFn: () => data(api.GET('/backend/api/v2/mediation/actionable')),
})

/** What the mediator and participants did between start and stop (ISO instants), for the report. */
export const trackedActionsQuery = (mediationId: number, start: string, stop: string) =>
  queryOptions({
    queryKey: queryKeys.mediations.trackedActions(mediationId, start, stop),
    queryFn: () =>
      data(api.GET('/backend/api/v2/mediation/{mediationId}/trackedActions', { params: { path: { mediationId }, query: { start, stop } } })),
  })

/**
 * Tracking periods being edited, checked by the server as saving them would be: the errors its refusal
 * would carry (`periods.<position sent>.start|stop` and message keys), none when they may be saved.
 */
export const trackingCheckQuery = (mediationId: number, periods: { start: string; stop: string }[]) =>
  queryOptions({
    queryKey: queryKeys.mediations.trackingCheck(mediationId, JSON.stringify(periods)),
    queryFn: () => data(api.POST('/backend/api/v2/mediation/{mediationId}/tracking/check', { ...byId(mediationId), body: { periods } })),
    // A stop refused as later than the current minute may be accepted a minute on: a refusal is asked again.
    refetchInterval: (query) => (query.state.data?.errors.length ? 60_000 : false),
  })

/**
 * Takes a change of one mediation, answered by the mediation as it now stands: its page takes the
 * answer, what shows it elsewhere (lists, the bell, its discussion's system messages) is read again.
 * For changes made outside a mutation of this module (a signature through the re-authentication hook).
 */
export function useMediationChanged() {
  const queryClient = useQueryClient()
  return async (mediation: Mediation) => {
    const { queryKey } = mediationQuery(mediation.id)
    queryClient.setQueryData(queryKey, mediation)
    await Promise.all([
      // Not its tracked actions: they depend on the periods only, which are in their key, and reading
      // them is refused once the report is validated (while the report page is still showing).
      queryClient.invalidateQueries({ queryKey: queryKeys.mediations.list }),
      queryClient.invalidateQueries({ queryKey: queryKeys.mediations.actionable }),
      queryClient.invalidateQueries({ queryKey: queryKeys.account.alerts }),
      queryClient.invalidateQueries({ queryKey: queryKeys.discussions.all }),
    ])
  }
}

/** A change of one mediation as a mutation; see useMediationChanged. */
function useMediationChange<V>(mutationFn: (variables: V) => Promise<Mediation>, meta?: ErrorHandlingMeta) {
  const changed = useMediationChanged()
  return useMutation({ mutationFn, meta, onSuccess: changed })
}

/** The fields of the mediation form, whose server errors the form shows on them. */
export const MEDIATION_FIELDS = ['title', 'description', 'schedulingDate', 'mediator', 'participants', 'visibleByGroups', 'visibleByPersons']
const FORM: ErrorHandlingMeta = { formFields: MEDIATION_FIELDS }

export const useCreateMediation = () => useMediationChange((body: MediationSave) => data(api.POST('/backend/api/v2/mediation', { body })), FORM)

/** 'Create and start': the user mediates it, it starts at once. */
export const useCreateUnplannedMediation = () =>
  useMediationChange((title: string) => data(api.POST('/backend/api/v2/mediation/unplanned', { body: { title } })), { formFields: ['title'] })

export const useUpdateMediation = () =>
  useMediationChange(
    ({ mediationId, body }: { mediationId: number; body: MediationSave & { version: number } }) =>
      data(api.POST('/backend/api/v2/mediation/{mediationId}', { ...byId(mediationId), body })),
    // A stale version (someone saved meanwhile) is explained by the form itself.
    { ...FORM, handledStatuses: [409] },
  )

/**
 * Start, pause, resume, stop, validate, invalidate or cancel: the status to reach. A transition that
 * another change made impossible meanwhile answers 409 illegalTransition, left to the caller.
 */
export const useChangeMediationStatus = (mediationId: number, meta?: ErrorHandlingMeta) =>
  useMediationChange(
    (status: MediationStatus) => data(api.POST('/backend/api/v2/mediation/{mediationId}/status', { ...byId(mediationId), body: { status } })),
    meta,
  )

export const useSaveTrackingPeriods = (mediationId: number, meta?: ErrorHandlingMeta) =>
  useMediationChange(
    ({ periods, version }: { periods: { start: string; stop: string | null }[]; version: number }) =>
      data(api.POST('/backend/api/v2/mediation/{mediationId}/tracking', { ...byId(mediationId), body: { periods, version } })),
    meta,
  )

export const useSaveReport = (mediationId: number, meta?: ErrorHandlingMeta) =>
  useMediationChange(
    ({ comment, items, version }: { comment: string; items: ReportItemIn[]; version: number }) =>
      data(api.POST('/backend/api/v2/mediation/{mediationId}/report', { ...byId(mediationId), body: { comment, items, version } })),
    meta,
  )

/** The participant's signature; the server may first ask for the password again (401 reauthenticationRequired). */
export const signMediation = (mediationId: number) => data(api.POST('/backend/api/v2/mediation/{mediationId}/sign', byId(mediationId)))

export const useSignMediation = (mediationId: number, meta?: ErrorHandlingMeta) => useMediationChange(() => signMediation(mediationId), meta)
