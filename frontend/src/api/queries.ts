import { queryOptions } from '@tanstack/react-query'
import { api, data } from './client'
import { setOrganizationTimeZone } from '../lib/dates'
import { queryKeys } from './queryKeys'

export const whoAmIQuery = queryOptions({
  queryKey: queryKeys.account.whoAmI,
  queryFn: () => data(api.GET('/backend/api/v2/account/whoAmI')),
  staleTime: 5 * 60_000,
})

export const organizationInfoQuery = queryOptions({
  queryKey: queryKeys.organization.info,
  queryFn: async () => {
    const info = await data(api.GET('/backend/api/v2/organization/info'))
    setOrganizationTimeZone(info.timeZone)
    return info
  },
  staleTime: Infinity,
})

export const APP_LOGO_URL = '/backend/api/v2/organization/applogo'
