import { APP_BASE } from '../../lib/session'

/** Set by the server's identity-provider callback: the token in the fragment, or why it failed. */
export const SSO_TOKEN = 'ssoToken'
export const SSO_ERROR = 'ssoError'

/**
 * Where Login leads: its returnUrl (a page of this application, else the application root) with Login's
 * other query parameters carried over. The returnUrl is judged as the browser reads it, not as it is
 * written: the URL parser drops tabs and line breaks and resolves dot segments ("/\t/evil.example",
 * "/spotv2/../..//evil.example" both read as another host), so what it makes of it must still be a path
 * under the base path of this origin, with no empty segment that could read as a host ("//").
 */
export function loginTarget(search: URLSearchParams, origin = window.location.origin): string {
  const fallback = `${APP_BASE}/`
  const requested = search.get('returnUrl') ?? fallback
  const sameSite = requested.startsWith('/') && !requested.startsWith('//') && !requested.includes('\\')
  const read = new URL(sameSite ? requested : fallback, origin)
  const inApplication =
    read.origin === new URL(origin).origin &&
    (read.pathname === APP_BASE || read.pathname.startsWith(`${APP_BASE}/`)) &&
    !read.pathname.includes('//')
  const url = inApplication ? read : new URL(fallback, origin)
  search.forEach((value, key) => {
    if (key !== 'returnUrl' && key !== SSO_ERROR) url.searchParams.append(key, value)
  })
  return url.pathname + url.search + url.hash
}
