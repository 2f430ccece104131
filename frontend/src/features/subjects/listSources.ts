import { mapItemSource } from '../../components/lists/mapItemSource'
import type { ValueSources } from '../../components/lists/types'
import { userSource } from '../../components/lists/userSource'

const USER_FIELDS = ['contributors', 'created_by', 'updated_by', 'followed_by', 'resolved_by', 'criticity_by', 'standardized_by']

/** Where the subject list's id and location criteria find their members. */
export const SUBJECT_FILTER_SOURCES: ValueSources = {
  location: mapItemSource(['site', 'cartography', 'function', 'activity']),
  function: mapItemSource(['function']),
  activity: mapItemSource(['activity']),
  ...Object.fromEntries(USER_FIELDS.map((field) => [field, userSource])),
}
