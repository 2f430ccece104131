import { describe, expect, it, vi } from 'vitest'
import { connection } from '../lib/connection'
import { storeToken } from '../lib/session'
import { errorReports, reportError } from './errorReports'
import { ApiError } from './errors'

const conflict = (errors: { field: string; code: string }[]) =>
  new ApiError({ status: 409, reason: 'Conflict', message: 'loginAlreadyUsed', errors })

describe('global error handler', () => {
  it('queues failures for the error dialog', () => {
    reportError(new TypeError('Failed to fetch'))
    reportError(conflict([]))
    expect(errorReports.current().map((report) => report.error.message)).toEqual(['Failed to fetch', 'loginAlreadyUsed'])
  })

  it('leaves to the caller the statuses it handles', () => {
    reportError(new ApiError({ status: 401, reason: 'Unauthorized', message: 'x', errors: [] }), { handledStatuses: [401] })
    expect(errorReports.current()).toHaveLength(0)
  })

  it('leaves field errors to the form that has those fields, and reports the others', () => {
    reportError(conflict([{ field: 'login', code: 'loginAlreadyUsed' }]), { formFields: ['login'] })
    expect(errorReports.current()).toHaveLength(0)
    reportError(conflict([{ field: 'other', code: 'invalidValue' }]), { formFields: ['login'] })
    expect(errorReports.current()).toHaveLength(1)
  })

  it('stays silent on a 401 once the session is over, but reports it while a session remains', () => {
    const unauthorized = new ApiError({ status: 401, reason: 'Unauthorized', message: 'sessionExpired', errors: [] })
    reportError(unauthorized)
    expect(errorReports.current()).toHaveLength(0)
    storeToken('still-here')
    reportError(unauthorized)
    expect(errorReports.current()).toHaveLength(1)
  })

  it('shows no dialog for a call that failed offline (the offline notice says it), but does online', () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false)
    reportError(new TypeError('Failed to fetch'))
    expect(errorReports.current()).toHaveLength(0)
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true)
    connection.lost()
    reportError(new TypeError('Failed to fetch'))
    expect(errorReports.current()).toHaveLength(0)
    connection.reached()
    reportError(new TypeError('Failed to fetch'))
    expect(errorReports.current()).toHaveLength(1)
  })
})
