import { api, data } from '../../api/client'
import { mapItemSource } from '../../components/lists/mapItemSource'
import type { ValueSource, ValueSources } from '../../components/lists/types'

/** Users of the id fields of filters (created_by, contributors…), searched by name. */
const userSource: ValueSource = {
  search: async (name) =>
    (await data(api.GET('/backend/api/v2/user/search', { params: { query: { name } } }))).map((user) => ({
      id: user.id,
      label: user.displayName,
    })),
  labels: async (ids) => {
    const numeric = ids.filter((id): id is number => typeof id === 'number')
    if (numeric.length === 0) return []
    return (await data(api.POST('/backend/api/v2/user/getUserNames', { body: numeric }))).map((user) => ({ id: user.id, label: user.name }))
  },
}

const USER_FIELDS = ['contributors', 'created_by', 'updated_by', 'followed_by', 'resolved_by', 'criticity_by', 'standardized_by']

/** Where the subject list's id and location criteria find their members. */
export const SUBJECT_FILTER_SOURCES: ValueSources = {
  location: mapItemSource(['site', 'cartography', 'function', 'activity']),
  function: mapItemSource(['function']),
  activity: mapItemSource(['activity']),
  ...Object.fromEntries(USER_FIELDS.map((field) => [field, userSource])),
}
