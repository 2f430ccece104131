import { describe, expect, it, vi } from 'vitest'
import { getToken, setSessionExpiredHandler, storeToken } from '../lib/session'
import { errorBody, fakeServer, json, sentRequests } from '../test/server'
import { api, data } from './client'
import { ApiError } from './errors'

const WHO = 'GET /backend/api/v2/account/whoAmI'

describe('api client', () => {
  it('sends the userToken cookie as x-access-token', async () => {
    const server = fakeServer({ [WHO]: () => json({ id: 1 }) })
    storeToken('my-token')
    await expect(data(api.GET('/backend/api/v2/account/whoAmI'))).resolves.toEqual({ id: 1 })
    expect(sentRequests(server, WHO)[0].headers.get('x-access-token')).toBe('my-token')
  })

  it('turns an error answer into an ApiError with status, reason, message and field errors', async () => {
    fakeServer({
      'PUT /backend/api/v2/user/group': () =>
        errorBody(409, 'Conflict', 'groupNameAlreadyUsed', [{ field: 'name', code: 'groupNameAlreadyUsed' }]),
    })
    const failure = await data(api.PUT('/backend/api/v2/user/group', { body: { name: 'A' } })).catch((e: unknown) => e)
    expect(failure).toBeInstanceOf(ApiError)
    expect(failure).toMatchObject({
      status: 409,
      reason: 'Conflict',
      message: 'groupNameAlreadyUsed',
      errors: [{ field: 'name', code: 'groupNameAlreadyUsed' }],
      call: { method: 'PUT', path: '/backend/api/v2/user/group' },
    })
  })

  it('describes an answer without error body by its status', async () => {
    fakeServer({ [WHO]: () => new Response('<html>proxy error</html>', { status: 502, statusText: 'Bad Gateway' }) })
    await expect(data(api.GET('/backend/api/v2/account/whoAmI'))).rejects.toMatchObject({
      status: 502,
      reason: 'Bad Gateway',
      message: 'unexpectedServerError',
    })
  })

  it('ends the session on a 401 answer to a signed-in call', async () => {
    fakeServer({ [WHO]: () => errorBody(401, 'Unauthorized', 'sessionExpired') })
    const toLogin = vi.fn()
    setSessionExpiredHandler(toLogin)
    storeToken('expired-token')
    await expect(data(api.GET('/backend/api/v2/account/whoAmI'))).rejects.toBeInstanceOf(ApiError)
    expect(getToken()).toBeUndefined()
    expect(toLogin).toHaveBeenCalledOnce()
    setSessionExpiredHandler(undefined)
  })

  it('keeps the session when a signature asks for the password again', async () => {
    // Whatever the call: the middleware reads the answer's message, not the path.
    fakeServer({ [WHO]: () => errorBody(401, 'Unauthorized', 'reauthenticationRequired') })
    const toLogin = vi.fn()
    setSessionExpiredHandler(toLogin)
    storeToken('live-token')
    await expect(data(api.GET('/backend/api/v2/account/whoAmI'))).rejects.toMatchObject({ status: 401, message: 'reauthenticationRequired' })
    expect(getToken()).toBe('live-token')
    expect(toLogin).not.toHaveBeenCalled()
    setSessionExpiredHandler(undefined)
  })

  it('keeps the session when the 401 answers a token another tab has already replaced', async () => {
    fakeServer({
      [WHO]: () => {
        storeToken('renewed-elsewhere')
        return errorBody(401, 'Unauthorized', 'sessionExpired')
      },
    })
    storeToken('old-token')
    await expect(data(api.GET('/backend/api/v2/account/whoAmI'))).rejects.toBeInstanceOf(ApiError)
    expect(getToken()).toBe('renewed-elsewhere')
  })
})
