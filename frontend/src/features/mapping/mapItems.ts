import { mapItemSource } from '../../components/lists/mapItemSource'
import type { ValueSources } from '../../components/lists/types'

/** The id and location fields of the cartography list (see backend/src/spot/mapping/query.py). */
export const CARTOGRAPHY_FILTER_SOURCES: ValueSources = {
  site: mapItemSource(['site']),
  location: mapItemSource(['site', 'cartography']),
}

/** The id and location fields of the function list. */
export const FUNCTION_FILTER_SOURCES: ValueSources = {
  site: mapItemSource(['site']),
  cartography: mapItemSource(['cartography']),
  location: mapItemSource(['site', 'cartography', 'function']),
}
