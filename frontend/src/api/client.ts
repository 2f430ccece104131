import createClient, { type Middleware } from 'openapi-fetch'
import { connection } from '../lib/connection'
import { expireSession, getToken } from '../lib/session'
import { apiErrorFrom, isReauthenticationRequired } from './errors'
import type { paths } from './schema'

const TOKEN_HEADER = 'x-access-token'

const session: Middleware = {
  onRequest({ request }) {
    const token = getToken()
    if (token && !request.headers.has(TOKEN_HEADER)) request.headers.set(TOKEN_HEADER, token)
    return request
  },
  async onResponse({ request, response }) {
    if (response.ok) return response
    const sentToken = request.headers.get(TOKEN_HEADER)
    const error = await apiErrorFrom(response, request)
    // A stale token (another tab renewed it meanwhile) is no reason to end the current session, nor
    // is a signature asking for the password again.
    if (response.status === 401 && sentToken && sentToken === getToken() && !isReauthenticationRequired(error)) expireSession()
    throw error
  },
}

/** The one client of the server's API; paths and payloads are typed from its OpenAPI document. */
export const api = createClient<paths>({
  baseUrl: window.location.origin,
  credentials: 'same-origin',
  // Resolved on each call so that tests can replace the global fetch. A call that gets no answer at
  // all (fetch's TypeError) says the server is out of reach; the next answer, that it is back.
  fetch: async (request) => {
    try {
      const response = await globalThis.fetch(request)
      connection.reached()
      return response
    } catch (error) {
      if (error instanceof TypeError) connection.lost()
      throw error
    }
  },
})
api.use(session)

/** The body of a successful answer: failures never get here, the middleware throws them as ApiError. */
export async function data<T>(call: Promise<{ data?: T }>): Promise<T> {
  return (await call).data as T
}
