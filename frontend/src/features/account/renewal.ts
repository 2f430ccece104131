import { api, data } from '../../api/client'
import { ApiError } from '../../api/errors'
import { expireSession, getToken, storeToken, tokenIssuedAt } from '../../lib/session'

export const RENEWAL_AFTER_MS = 60 * 60 * 1000
export const RENEWAL_CHECK_MS = 60 * 1000
const RENEWAL_LOCK = 'spot-token-renewal'

async function renewIfDue(): Promise<void> {
  const token = getToken()
  if (!token) return
  const issuedAt = tokenIssuedAt()
  if (issuedAt === undefined) {
    storeToken(token)
    return
  }
  if (Date.now() - issuedAt <= RENEWAL_AFTER_MS) return
  try {
    const renewed = await data(api.POST('/backend/api/v2/account/renewToken'))
    storeToken(renewed.token)
  } catch (error) {
    // A refusal ends the session; a network failure is tried again at the next check.
    if (error instanceof ApiError && getToken() === token) expireSession()
  }
}

let pending: Promise<void> | undefined

/**
 * Renews the session token once more than an hour has passed since it was issued.
 * Tabs share the token, so they take turns (Web Locks) and each re-reads the issue time first.
 */
export function renewTokenIfDue(): Promise<void> {
  if (!pending) {
    const turn = navigator.locks ? navigator.locks.request(RENEWAL_LOCK, renewIfDue).then(() => undefined) : renewIfDue()
    pending = turn.finally(() => {
      pending = undefined
    })
  }
  return pending
}

/** Checks every minute and whenever the window regains focus; returns the stop function. */
export function startTokenRenewal(): () => void {
  const check = () => void renewTokenIfDue()
  const timer = window.setInterval(check, RENEWAL_CHECK_MS)
  window.addEventListener('focus', check)
  check()
  return () => {
    window.clearInterval(timer)
    window.removeEventListener('focus', check)
  }
}
