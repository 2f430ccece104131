import { api, data } from '../../api/client'
import type { components } from '../../api/schema'

export type ReferenceCard = components['schemas']['ReferenceCard']
/** The reference lists of the client: module and path references (spec 2 §2). */
export type ReferenceType = 'module' | 'path'

/** The autocomplete's page: at most 30 enabled references of `type` whose code, label or description contains `text`. */
export const searchReferences = (type: ReferenceType, text: string) =>
  data(api.GET('/backend/api/v2/training/references/{type}/search', { params: { path: { type }, query: { text } } }))
