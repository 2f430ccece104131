import { queryOptions } from '@tanstack/react-query'
import { api, data } from './client'

export const whoAmIQuery = queryOptions({
  queryKey: ['account', 'whoAmI'],
  queryFn: () => data(api.GET('/backend/api/v2/account/whoAmI')),
  staleTime: 5 * 60_000,
})

export const organizationInfoQuery = queryOptions({
  queryKey: ['organization', 'info'],
  queryFn: () => data(api.GET('/backend/api/v2/organization/info')),
  staleTime: Infinity,
})

export const APP_LOGO_URL = '/backend/api/v2/organization/applogo'
