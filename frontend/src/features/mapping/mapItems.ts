import type { ValueOption, ValueSource, ValueSources } from '../../components/lists/types'
import { type MapItemName, mapItemNames, type MapItemType, searchMapItems } from './api'

/**
 * What the user reads for an item of the map: its name, then where it sits — the path below its site
 * (cartography, then parent activities), or the site of a cartography.
 */
export function mapItemLabel(item: MapItemName): string {
  const where = item.context.length > 1 ? item.context.slice(1) : item.context
  return where.length === 0 ? item.name : `${item.name} (${where.map((entry) => entry.name).join(' › ')})`
}

const option = (item: MapItemName): ValueOption => ({ id: item.id, label: mapItemLabel(item) })

/**
 * A filter value source over the items of the map of the given types, searched by name and named by
 * the server (GET /mapping/items/search, POST /mapping/items/names), which leaves out what the user
 * may not see. The value input debounces the searches.
 */
export function mapItemSource(types: readonly MapItemType[]): ValueSource {
  return {
    search: async (text) => (await searchMapItems(text, types)).map(option),
    labels: async (ids) => {
      const numeric = ids.filter((id): id is number => typeof id === 'number')
      return numeric.length === 0 ? [] : (await mapItemNames(numeric)).map(option)
    },
  }
}

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
