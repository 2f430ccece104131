import { waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { storeToken } from '../../lib/session'
import { renderRoutes } from '../../test/render'
import { fakeServer, json, sentRequests } from '../../test/server'
import { LogoutPage } from './LogoutPage'

const LOGOUT = 'POST /backend/api/v2/account/logout'
const routes = [
  { path: '/logout', Component: LogoutPage },
  { path: '/login', Component: () => null },
]

describe('logout page', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('ends the session, then goes to the login page', async () => {
    const fetchMock = fakeServer({ [LOGOUT]: () => json({ endSessionUrl: null }) })
    storeToken('session-1')
    const { router } = renderRoutes(routes, '/spotv2/logout')
    await waitFor(() => expect(router.state.location.pathname).toBe('/spotv2/login'))
    expect(sentRequests(fetchMock, LOGOUT)[0].headers.get('x-access-token')).toBe('session-1')
  })

  it("sends the browser to end the identity provider's session too when the server says where", async () => {
    fakeServer({ [LOGOUT]: () => json({ endSessionUrl: 'https://idp.example/session/end?id_token_hint=x' }) })
    const assign = vi.fn()
    vi.stubGlobal('location', { ...window.location, assign })
    storeToken('session-2')
    const { router } = renderRoutes(routes, '/spotv2/logout')
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://idp.example/session/end?id_token_hint=x'))
    expect(router.state.location.pathname).toBe('/spotv2/logout')
  })
})
