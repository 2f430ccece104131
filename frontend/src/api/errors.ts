export interface FieldError {
  field: string
  code: string
}

interface ErrorBody {
  status: number
  reason: string
  message: string
  errors: FieldError[]
}

/** The call that failed, for the details shown to whoever reports the problem. */
export interface FailedCall {
  method: string
  path: string
}

/** A non-2xx answer of the server, with the body every error carries. */
export class ApiError extends Error {
  readonly status: number
  readonly reason: string
  readonly errors: FieldError[]
  readonly call: FailedCall | undefined
  /** How many seconds the server asks to wait before trying again (its Retry-After), when it said. */
  readonly retryAfter: number | undefined

  constructor({ status, reason, message, errors }: ErrorBody, call?: FailedCall, retryAfter?: number) {
    super(message)
    this.name = 'ApiError'
    this.status = status
    this.reason = reason
    this.errors = errors
    this.call = call
    this.retryAfter = retryAfter
  }
}

export const UNEXPECTED_SERVER_ERROR = 'unexpectedServerError'

function isErrorBody(body: unknown): body is ErrorBody {
  if (typeof body !== 'object' || body === null) return false
  const candidate = body as Partial<ErrorBody>
  return typeof candidate.status === 'number' && typeof candidate.message === 'string'
}

/** Spot's Retry-After is a number of seconds (the HTTP date form is never sent). */
function retryAfterOf(response: Response): number | undefined {
  const header = response.headers.get('Retry-After')?.trim()
  return header && /^\d+$/.test(header) ? Number(header) : undefined
}

export async function apiErrorFrom(response: Response, request?: Request): Promise<ApiError> {
  const body: unknown = await response.json().catch(() => undefined)
  const call = request && { method: request.method, path: new URL(request.url).pathname }
  if (isErrorBody(body)) {
    const errors = Array.isArray(body.errors) ? body.errors : []
    return new ApiError({ status: body.status, reason: body.reason ?? response.statusText, message: body.message, errors }, call, retryAfterOf(response))
  }
  return new ApiError(
    { status: response.status, reason: response.statusText, message: UNEXPECTED_SERVER_ERROR, errors: [] },
    call,
  )
}

export function isApiError(error: unknown, ...statuses: number[]): error is ApiError {
  return error instanceof ApiError && (statuses.length === 0 || statuses.includes(error.status))
}

/** The server's answer to a signature whose session last proved its user's identity more than 5
 * minutes ago: the password is asked again (components/signatures), the session goes on. */
export const REAUTHENTICATION_REQUIRED = 'reauthenticationRequired'

export function isReauthenticationRequired(error: unknown): error is ApiError {
  return isApiError(error, 401) && error.message === REAUTHENTICATION_REQUIRED
}
