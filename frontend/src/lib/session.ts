import Cookies from 'js-cookie'

export const APP_BASE = '/spotv2'
const TOKEN_COOKIE = 'userToken'
const ISSUED_AT_KEY = 'spot.tokenIssuedAt'
const EVENT_KEY = 'spot.sessionEvent'
const CHANNEL_NAME = 'spot-session'

export type SessionEvent = 'login' | 'logout'

function cookieOptions(): Cookies.CookieAttributes {
  return { path: APP_BASE, sameSite: 'Strict', secure: window.location.protocol === 'https:' }
}

export function getToken(): string | undefined {
  return Cookies.get(TOKEN_COOKIE)
}

export function tokenIssuedAt(): number | undefined {
  const value = Number(localStorage.getItem(ISSUED_AT_KEY))
  return value > 0 ? value : undefined
}

export function storeToken(token: string, issuedAt = Date.now()): void {
  Cookies.set(TOKEN_COOKIE, token, cookieOptions())
  localStorage.setItem(ISSUED_AT_KEY, String(issuedAt))
}

// One channel object for both directions: a BroadcastChannel never receives its own messages,
// so this tab does not react to what it announces itself.
let channel: BroadcastChannel | undefined
function sessionChannel(): BroadcastChannel | undefined {
  if (!channel && typeof BroadcastChannel !== 'undefined') channel = new BroadcastChannel(CHANNEL_NAME)
  return channel
}

function announce(event: SessionEvent): void {
  const broadcast = sessionChannel()
  if (broadcast) broadcast.postMessage(event)
  else localStorage.setItem(EVENT_KEY, JSON.stringify({ event, at: Date.now() }))
}

/** Calls back when another tab of this browser logs in or out. */
export function listenToOtherTabs(onEvent: (event: SessionEvent) => void): () => void {
  const broadcast = sessionChannel()
  if (broadcast) {
    const onMessage = (message: MessageEvent<SessionEvent>) => onEvent(message.data)
    broadcast.addEventListener('message', onMessage)
    return () => broadcast.removeEventListener('message', onMessage)
  }
  const onStorage = (storage: StorageEvent) => {
    if (storage.key === EVENT_KEY && storage.newValue) onEvent((JSON.parse(storage.newValue) as { event: SessionEvent }).event)
  }
  window.addEventListener('storage', onStorage)
  return () => window.removeEventListener('storage', onStorage)
}

export function openSession(token: string): void {
  storeToken(token)
  announce('login')
}

export function closeSession(): void {
  const hadSession = getToken() !== undefined
  Cookies.remove(TOKEN_COOKIE, cookieOptions())
  localStorage.removeItem(ISSUED_AT_KEY)
  void dropStoredAnswers()
  if (hadSession) announce('logout')
}

/** The service worker keeps Spot's own files (its precache) and no answer of the server; any other
 * cache of this origin goes with the session, so that nothing read while signed in outlives it. */
export async function dropStoredAnswers(): Promise<void> {
  if (typeof caches === 'undefined') return
  const names = await caches.keys()
  await Promise.all(names.filter((name) => !name.startsWith('workbox-precache')).map((name) => caches.delete(name)))
}

let onExpired: (() => void) | undefined

/** What to do once the server no longer accepts the session (the application goes to Login). */
export function setSessionExpiredHandler(handler: (() => void) | undefined): void {
  onExpired = handler
}

export function expireSession(): void {
  closeSession()
  onExpired?.()
}

/** The in-application path of an address under the base path, or undefined for any other address. */
export function appPath(url: string): string | undefined {
  if (url === APP_BASE) return '/'
  return url.startsWith(`${APP_BASE}/`) ? url.slice(APP_BASE.length) : undefined
}
