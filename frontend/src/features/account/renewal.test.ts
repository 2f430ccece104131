import Cookies from 'js-cookie'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { setSessionExpiredHandler, storeToken } from '../../lib/session'
import { errorBody, fakeServer, json, sentRequests } from '../../test/server'
import { RENEWAL_AFTER_MS, startTokenRenewal } from './renewal'

const RENEW = 'POST /backend/api/v2/account/renewToken'
const MINUTE = 60_000

describe('token renewal', () => {
  let stop: () => void = () => undefined

  beforeEach(() => {
    vi.useFakeTimers()
    storeToken('first-token', Date.now())
  })

  afterEach(() => {
    stop()
    setSessionExpiredHandler(undefined)
    vi.useRealTimers()
  })

  it('does not renew within the first hour', async () => {
    const server = fakeServer({ [RENEW]: () => json({ token: 'second-token' }) })
    stop = startTokenRenewal()
    await vi.advanceTimersByTimeAsync(RENEWAL_AFTER_MS - MINUTE)
    expect(sentRequests(server, RENEW)).toHaveLength(0)
    expect(Cookies.get('userToken')).toBe('first-token')
  })

  it('renews once more than an hour has passed, sending the current token, and keeps the new one', async () => {
    const server = fakeServer({ [RENEW]: () => json({ token: 'second-token' }) })
    stop = startTokenRenewal()
    await vi.advanceTimersByTimeAsync(RENEWAL_AFTER_MS + MINUTE)
    const sent = sentRequests(server, RENEW)
    expect(sent).toHaveLength(1)
    expect(sent[0].headers.get('x-access-token')).toBe('first-token')
    expect(Cookies.get('userToken')).toBe('second-token')

    await vi.advanceTimersByTimeAsync(30 * MINUTE)
    expect(sentRequests(server, RENEW)).toHaveLength(1)
  })

  it('checks again when the window regains focus', async () => {
    const server = fakeServer({ [RENEW]: () => json({ token: 'second-token' }) })
    stop = startTokenRenewal()
    await vi.advanceTimersByTimeAsync(0)
    vi.setSystemTime(Date.now() + RENEWAL_AFTER_MS + 1)
    window.dispatchEvent(new Event('focus'))
    await vi.advanceTimersByTimeAsync(0)
    expect(sentRequests(server, RENEW)).toHaveLength(1)
  })

  it('logs out when the renewal is refused: the cookie is removed and Login is shown', async () => {
    fakeServer({ [RENEW]: () => errorBody(401, 'Unauthorized', 'sessionExpired') })
    const toLogin = vi.fn()
    setSessionExpiredHandler(toLogin)
    stop = startTokenRenewal()
    await vi.advanceTimersByTimeAsync(RENEWAL_AFTER_MS + MINUTE)
    expect(Cookies.get('userToken')).toBeUndefined()
    expect(toLogin).toHaveBeenCalled()
  })

  it('logs out when the server fails the renewal', async () => {
    fakeServer({ [RENEW]: () => errorBody(500, 'Internal Server Error', 'An unexpected server error occurred.') })
    stop = startTokenRenewal()
    await vi.advanceTimersByTimeAsync(RENEWAL_AFTER_MS + MINUTE)
    expect(Cookies.get('userToken')).toBeUndefined()
  })
})
