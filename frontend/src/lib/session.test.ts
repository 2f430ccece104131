import Cookies from 'js-cookie'
import { describe, expect, it, vi } from 'vitest'
import { appPath, closeSession, dropStoredAnswers, expireSession, getToken, openSession, setSessionExpiredHandler, tokenIssuedAt } from './session'

describe('appPath', () => {
  it('strips the base path from application addresses only', () => {
    expect(appPath('/spotv2/administration/users?tab=groups')).toBe('/administration/users?tab=groups')
    expect(appPath('/spotv2')).toBe('/')
    expect(appPath('/lms/course')).toBeUndefined()
    expect(appPath('/spotv2x/a')).toBeUndefined()
  })
})

describe('session storage', () => {
  it('keeps the token in the userToken cookie with its issue time, and forgets both on close', () => {
    vi.spyOn(Date, 'now').mockReturnValue(1_000_000)
    openSession('abc')
    expect(Cookies.get('userToken')).toBe('abc')
    expect(tokenIssuedAt()).toBe(1_000_000)
    closeSession()
    expect(getToken()).toBeUndefined()
    expect(tokenIssuedAt()).toBeUndefined()
  })

  it('runs the expiry handler when the session expires', () => {
    const handler = vi.fn()
    setSessionExpiredHandler(handler)
    openSession('abc')
    expireSession()
    expect(getToken()).toBeUndefined()
    expect(handler).toHaveBeenCalledOnce()
    setSessionExpiredHandler(undefined)
  })
})

describe('caches on sign-out', () => {
  it("drops every cache of the origin but the service worker's copy of Spot's own files", async () => {
    const names = ['workbox-precache-v2-https://spot/spotv2/', 'answers-of-a-session', 'another']
    const remove = vi.fn(async (name: string) => names.includes(name))
    vi.stubGlobal('caches', { keys: async () => names, delete: remove })
    await dropStoredAnswers()
    expect(remove.mock.calls.map(([name]) => name)).toEqual(['answers-of-a-session', 'another'])
  })

  it('does nothing where the browser has no cache storage', async () => {
    vi.stubGlobal('caches', undefined)
    await expect(dropStoredAnswers()).resolves.toBeUndefined()
  })
})
