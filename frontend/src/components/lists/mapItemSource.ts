import { mapItemNames, searchMapItems } from '../../api/mapping'
import type { MapItemName, MapItemType } from '../../api/types'
import type { ValueOption, ValueSource } from './types'

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
