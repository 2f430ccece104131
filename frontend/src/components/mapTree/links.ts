import { cartographyPath, functionPath, SITES_PATH, subjectPath, subjectsAtPath } from '../../lib/paths'
import type { SpotItemType } from './api'

/** The page of an item of the map: a site the sites page, an activity the subjects under it, the others their own page. */
export function mapItemPath(type: SpotItemType, id: number): string {
  switch (type) {
    case 'site':
      return SITES_PATH
    case 'cartography':
      return cartographyPath(id)
    case 'function':
      return functionPath(id)
    case 'subject':
      return subjectPath(id)
    case 'activity':
      return subjectsAtPath(id)
  }
}
