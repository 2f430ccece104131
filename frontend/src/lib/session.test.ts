import Cookies from 'js-cookie'
import { describe, expect, it, vi } from 'vitest'
import { appPath, closeSession, expireSession, getToken, openSession, setSessionExpiredHandler, tokenIssuedAt } from './session'

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
