import { api, data } from '../../api/client'
import type { ValueSource, ValueSources } from '../../components/lists/types'
import { userSource } from '../../components/lists/userSource'
import { searchReferences } from '../../components/references/api'

const referenceLabel = (reference: { code: string; label: string }) => `${reference.code} — ${reference.label}`

/** Path references, whose codes are the ids of the list's reference criterion. */
const referenceSource: ValueSource = {
  search: async (text) => (await searchReferences('path', text)).map((reference) => ({ id: reference.code, label: referenceLabel(reference) })),
  labels: async (ids) => {
    const read = await Promise.all(
      ids.map((code) =>
        data(api.GET('/backend/api/v2/training/references/{type}/{code}', { params: { path: { type: 'path', code: String(code) } } })).catch(() => null),
      ),
    )
    return read.flatMap((reference) => (reference ? [{ id: reference.code, label: referenceLabel(reference) }] : []))
  },
}

/** Training modules, enabled or not (a path keeps the modules disabled since). */
const moduleSource: ValueSource = {
  search: async (name) => (await data(api.GET('/backend/api/v2/training/module/search', { params: { query: { name } } }))).map((module) => ({ id: module.id, label: module.name })),
  labels: async (ids) => {
    const numeric = ids.filter((id): id is number => typeof id === 'number')
    if (numeric.length === 0) return []
    return (await data(api.POST('/backend/api/v2/training/module/getTrainingModuleNames', { body: numeric }))).map((module) => ({ id: module.id, label: module.name }))
  },
}

/** Where the path list's id criteria find their members. */
export const PATH_FILTER_SOURCES: ValueSources = {
  learner: userSource,
  creator: userSource,
  validator: userSource,
  referent: userSource,
  reference: referenceSource,
  module: moduleSource,
}
