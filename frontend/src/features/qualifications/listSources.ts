import { api, data } from '../../api/client'
import type { GroupRef } from '../../api/types'
import { mapItemSource } from '../../components/lists/mapItemSource'
import type { ValueSource, ValueSources } from '../../components/lists/types'

const numericIds = (ids: readonly (string | number)[]) => ids.filter((id): id is number => typeof id === 'number')
const groupOptions = (groups: GroupRef[]) => groups.map((group) => ({ id: group.id, label: group.name }))

/** Groups, searched by name (GET /user/searchGroup) and named by the server (POST /user/getGroupNames). */
const groupSource: ValueSource = {
  search: async (name) => groupOptions(await data(api.GET('/backend/api/v2/user/searchGroup', { params: { query: { name } } }))),
  labels: async (ids) => {
    const numeric = numericIds(ids)
    return numeric.length === 0 ? [] : groupOptions(await data(api.POST('/backend/api/v2/user/getGroupNames', { body: numeric })))
  },
}

/** Training modules, enabled or not (a qualification keeps the modules disabled since). */
const moduleSource: ValueSource = {
  search: async (name) => (await data(api.GET('/backend/api/v2/training/module/search', { params: { query: { name } } }))).map((module) => ({ id: module.id, label: module.name })),
  labels: async (ids) => {
    const numeric = numericIds(ids)
    if (numeric.length === 0) return []
    return (await data(api.POST('/backend/api/v2/training/module/getTrainingModuleNames', { body: numeric }))).map((module) => ({ id: module.id, label: module.name }))
  },
}

/** Where the qualification list's id criteria find their members (spec 2 §2: id pickers with autocomplete). */
export const QUALIFICATION_FILTER_SOURCES: ValueSources = {
  cartographies: mapItemSource(['cartography']),
  qualifiableGroups: groupSource,
  modules: moduleSource,
}
