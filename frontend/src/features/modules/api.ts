import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { api, data } from '../../api/client'
import type { ErrorHandlingMeta } from '../../api/errorReports'
import { queryKeys } from '../../api/queryKeys'
import type { components } from '../../api/schema'
import { LOAD_FAILURES_SHOWN_BY_PAGE } from '../../lib/loadFailures'
import type { ListQuery } from '../../lib/querylang/types'

type Schemas = components['schemas']
export type Module = Schemas['ModuleOut']
export type ModuleCard = Schemas['ModuleCard']
export type ModuleSave = Schemas['ModuleSave']
export type ModuleCan = Module['can']
export type ModuleType = Module['moduleType']
export type ModuleItemOut = Module['moduleItems'][number]
export type ModuleItemIn = ModuleSave['moduleItems'][number]

const byId = (trainingModuleId: number) => ({ params: { path: { trainingModuleId } } })

export const queryModules = (body: ListQuery) => data(api.POST('/backend/api/v2/training/module/query', { body }))

export const moduleQuery = (moduleId: number) =>
  queryOptions({
    queryKey: queryKeys.modules.module(moduleId),
    queryFn: () => data(api.GET('/backend/api/v2/training/module/{trainingModuleId}', byId(moduleId))),
    meta: LOAD_FAILURES_SHOWN_BY_PAGE,
  })

/** A change of one module: its page takes the answer, the lists showing it are read again. */
function useModuleChanged() {
  const queryClient = useQueryClient()
  return async (module?: Module) => {
    if (module) queryClient.setQueryData(moduleQuery(module.id).queryKey, module)
    await queryClient.invalidateQueries({ queryKey: queryKeys.modules.list })
  }
}

/** The form shows refused saves itself: errors on its fields and on single elements (moduleItems[2].url). */
const FORM: ErrorHandlingMeta = { handledStatuses: [400, 422] }

export function useCreateModule() {
  const changed = useModuleChanged()
  return useMutation({
    mutationFn: (body: ModuleSave) => data(api.POST('/backend/api/v2/training/module', { body })),
    meta: FORM,
    onSuccess: () => changed(),
  })
}

export function useUpdateModule() {
  const changed = useModuleChanged()
  return useMutation({
    mutationFn: ({ moduleId, body }: { moduleId: number; body: ModuleSave & { version: number } }) =>
      data(api.POST('/backend/api/v2/training/module/{trainingModuleId}', { ...byId(moduleId), body })),
    // A stale version, or a path accepted meanwhile, is explained by the form itself.
    meta: { handledStatuses: [400, 409, 422] },
    onSuccess: changed,
  })
}

export function useSetModuleEnabled(moduleId: number) {
  const changed = useModuleChanged()
  return useMutation({
    mutationFn: (enabled: boolean) => data(api.POST('/backend/api/v2/training/module/{trainingModuleId}/setEnabled', { ...byId(moduleId), body: { enabled } })),
    onSuccess: changed,
  })
}

export function useDeleteModule(moduleId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => data(api.DELETE('/backend/api/v2/training/module/{trainingModuleId}', byId(moduleId))),
    meta: { handledStatuses: [409] },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.modules.list }),
  })
}

/** Forgets a deleted module, once its page is left (its page would read it again). */
export function useForgetModule() {
  const queryClient = useQueryClient()
  return (moduleId: number) => queryClient.removeQueries({ queryKey: moduleQuery(moduleId).queryKey, exact: true })
}
