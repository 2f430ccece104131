import { api, data } from '../../api/client'
import type { ValueSource } from './types'

/** Users of the id fields of list filters (created_by, mediator, participants…), searched by name; those who
 * left too, since what they did stays. */
export const userSource: ValueSource = {
  search: async (name) =>
    (await data(api.GET('/backend/api/v2/user/search', { params: { query: { name, includeInactive: true } } }))).map((user) => ({
      id: user.id,
      label: user.displayName,
    })),
  labels: async (ids) => {
    const numeric = ids.filter((id): id is number => typeof id === 'number')
    if (numeric.length === 0) return []
    return (await data(api.POST('/backend/api/v2/user/getUserNames', { body: numeric }))).map((user) => ({ id: user.id, label: user.name }))
  },
}
