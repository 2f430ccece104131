import { listPath } from '../../components/lists/address'

export const SUBJECTS_PATH = '/subjects'
export const CARTOGRAPHIES_PATH = '/cartographies'
export const FUNCTIONS_PATH = '/functions'

/** The subject list filtered on items of the hierarchy, all of them (each criterion is 'location oneOf id'). */
export function subjectsAtPath(...itemIds: number[]): string {
  return listPath(SUBJECTS_PATH, itemIds.map((id) => `location oneOf ${id}`).join(' & '))
}

export const subjectPath = (subjectId: number) => `/subject/${subjectId}`
export const functionPath = (functionId: number) => `/function/${functionId}`
export const cartographyPath = (cartographyId: number) => `/cartography/${cartographyId}`
/** The sites page with the site of this cartography open. */
export const siteOfCartographyPath = (cartographyId: number) => `/sites?cartographyId=${cartographyId}`

/** A route parameter that must be an id; anything else is an unknown page. */
export function idParam(value: string | undefined): number | undefined {
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined
}
