import { vi } from 'vitest'

type Handler = (request: Request) => Response | Promise<Response>

export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })
}

export function errorBody(status: number, reason: string, message: string, errors: { field: string; code: string }[] = []): Response {
  return json({ status, reason, message, errors }, status)
}

/** The login throttle's answer: too many failures, try again after `seconds` (its Retry-After). */
export function throttled(seconds: number): Response {
  return new Response(JSON.stringify({ status: 429, reason: 'Too Many Requests', message: 'Too many failed login attempts, try again later', errors: [] }), {
    status: 429,
    headers: { 'Content-Type': 'application/json', 'Retry-After': String(seconds) },
  })
}

/**
 * Replaces fetch with answers keyed by "METHOD /backend/api/v2/path"; any other call answers 404.
 * Returns the mock, whose calls hold the requests sent.
 */
export function fakeServer(handlers: Record<string, Handler>) {
  const fetchMock = vi.fn(async (request: Request) => {
    const key = `${request.method} ${new URL(request.url).pathname}`
    const handler = handlers[key]
    return handler ? handler(request) : errorBody(404, 'Not Found', 'Not Found')
  })
  vi.stubGlobal('fetch', fetchMock)
  return fetchMock
}

export function sentRequests(fetchMock: ReturnType<typeof fakeServer>, key: string): Request[] {
  return fetchMock.mock.calls
    .map(([request]) => request)
    .filter((request) => `${request.method} ${new URL(request.url).pathname}` === key)
}
