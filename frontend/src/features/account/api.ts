import { queryOptions } from '@tanstack/react-query'
import { api, data } from '../../api/client'
import type { components } from '../../api/schema'
import { queryKeys } from '../../api/queryKeys'
import { closeSession, getToken } from '../../lib/session'

export const identityProvidersQuery = (redirectUrl: string) =>
  queryOptions({
    queryKey: queryKeys.account.identityProviders(redirectUrl),
    queryFn: () => data(api.GET('/backend/api/v2/account/identity-providers', { params: { query: { redirectUrl } } })),
    staleTime: Infinity,
  })

export interface Credentials {
  username: string
  password: string
  returnUrl: string
}

export type SignedIn = components['schemas']['LoginResult']

export function login(credentials: Credentials) {
  return data(api.POST('/backend/api/v2/account/login', { body: credentials }))
}

/**
 * Forgets the session at once (this tab and the others), then tells the server to revoke it. A session
 * opened through an identity provider answers where the browser ends the provider's session too.
 */
export async function logout(): Promise<string | null> {
  const token = getToken()
  if (!token) return null
  closeSession()
  const answer = await api.POST('/backend/api/v2/account/logout', { headers: { 'x-access-token': token } }).catch(() => undefined)
  return answer?.data?.endSessionUrl ?? null
}
