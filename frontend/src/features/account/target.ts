import { APP_BASE } from '../../lib/session'

/** Set by the server's identity-provider callback: the token in the fragment, or why it failed. */
export const SSO_TOKEN = 'ssoToken'
export const SSO_ERROR = 'ssoError'

/**
 * Where Login leads: its returnUrl (a path of this site, else the application root)
 * with Login's other query parameters carried over.
 */
export function loginTarget(search: URLSearchParams, origin = window.location.origin): string {
  const fallback = `${APP_BASE}/`
  const requested = search.get('returnUrl') ?? fallback
  const sameSite = requested.startsWith('/') && !requested.startsWith('//') && !requested.includes('\\')
  const url = new URL(sameSite ? requested : fallback, origin)
  search.forEach((value, key) => {
    if (key !== 'returnUrl' && key !== SSO_ERROR) url.searchParams.append(key, value)
  })
  return url.pathname + url.search + url.hash
}
